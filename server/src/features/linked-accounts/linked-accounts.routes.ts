import type { FastifyInstance } from 'fastify';
import { caller, type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createLinkedAdminService, type LinkedAdminService } from './linked-accounts.admin';
import { type LinkProvider, sandboxLinkProvider } from './linked-accounts.provider';
import { findAccountByPhone } from './linked-accounts.queries';
import { createLinkedAccountsService, type LinkedAccountsService } from './linked-accounts.service';

function linkedAccountsHandlers(linked: LinkedAccountsService, admin: LinkedAdminService): Handlers {
  const actor = (ctx: Parameters<typeof caller>[0] & { requestId: string }) => ({
    id: caller(ctx).id,
    requestId: ctx.requestId,
  });
  return {
    linkedGenPhoneCode: (ctx) => linked.genPhoneCode(caller(ctx).id, ctx.body.phone),
    linkedGetQrCode: (ctx) => linked.getQrCode(caller(ctx).id),
    linkedQrStatus: (ctx) => linked.qrStatus(caller(ctx).id, ctx.query.id),
    linkedLogout: (ctx) => linked.logout(caller(ctx).id, ctx.body.phone, ctx.locale),
    linkedPage: (ctx) => linked.page(caller(ctx).id, ctx.query, ctx.locale),
    linkedLogList: (ctx) => linked.logList(caller(ctx).id, ctx.query, ctx.locale),
    linkedSettlement: (ctx) => linked.settle(caller(ctx).id, ctx.params.phone),
    linkedIsBound: (ctx) => linked.isBound(caller(ctx).id, ctx.params.phone),
    adminWsList: (ctx) => admin.list(ctx.query, ctx.locale),
    adminWsLog: async (ctx) => linked.eventPage(await admin.accountId(ctx.query.phone), ctx.query, ctx.locale),
    adminWsComplete: (ctx) => admin.complete(actor(ctx), ctx.body, ctx.locale),
    adminWsStatus: (ctx) => admin.setStatus(actor(ctx), ctx.body, ctx.locale),
    adminWsRateGet: () => admin.rateGet(),
    adminWsRateSet: (ctx) => admin.rateSet(actor(ctx), ctx.body.hourlyRate),
  };
}

/** `provider`: the messaging provider of linked accounts; the sandbox when absent (DESIGN.md §2). */
export function register(app: FastifyInstance, deps: FeatureDeps & { provider?: LinkProvider }) {
  const { db, now } = deps;
  const provider =
    deps.provider ??
    sandboxLinkProvider({ now, statusOf: async (phone) => (await findAccountByPhone(db, phone))?.status });
  registerRoutes(
    app,
    linkedAccountsHandlers(createLinkedAccountsService({ db, provider, now }), createLinkedAdminService({ db, now })),
  );
}

import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createLinkedAccountsAdmin, type LinkedAccountsAdmin } from './linked-accounts.admin';
import { type LinkProvider, sandboxLinkProvider } from './linked-accounts.provider';
import { findAccountByPhone } from './linked-accounts.queries';
import { createLinkedAccountsService, type LinkedAccountsService } from './linked-accounts.service';

function linkedAccountsHandlers(linked: LinkedAccountsService, admin: LinkedAccountsAdmin): Handlers {
  return {
    linkedGenPhoneCode: (ctx) => linked.genPhoneCode(ctx.user.id, ctx.body.phone),
    linkedGetQrCode: (ctx) => linked.getQrCode(ctx.user.id),
    linkedQrStatus: (ctx) => linked.qrStatus(ctx.user.id, ctx.query.id),
    linkedLogout: (ctx) => linked.logout(ctx.user.id, ctx.body.phone, ctx.locale),
    linkedPage: (ctx) => linked.page(ctx.user.id, ctx.query, ctx.locale),
    linkedLogList: (ctx) => linked.logList(ctx.user.id, ctx.query, ctx.locale),
    linkedSettlement: (ctx) => linked.settle(ctx.user.id, ctx.params.phone),
    linkedIsBound: (ctx) => linked.isBound(ctx.user.id, ctx.params.phone),
    adminWsList: (ctx) => admin.list(ctx.query, ctx.locale),
    adminWsLog: async (ctx) => linked.eventPage(await admin.accountId(ctx.query.phone), ctx.query, ctx.locale),
    adminWsComplete: (ctx) => admin.complete(ctx.actor, ctx.body, ctx.locale),
    adminWsStatus: (ctx) => admin.setStatus(ctx.actor, ctx.body, ctx.locale),
    adminWsRateGet: () => admin.rateGet(),
    adminWsRateSet: (ctx) => admin.rateSet(ctx.actor, ctx.body.hourlyRate),
  };
}

/** `provider`: the messaging provider of linked accounts; the sandbox when absent (docs/design.md "Scope"). */
export function register(app: FastifyInstance, deps: FeatureDeps & { provider?: LinkProvider }) {
  const { db, now } = deps;
  const provider =
    deps.provider ??
    sandboxLinkProvider({ now, statusOf: async (phone) => (await findAccountByPhone(db, phone))?.status });
  const admin = createLinkedAccountsAdmin({ db, now });
  registerRoutes(app, linkedAccountsHandlers(createLinkedAccountsService({ db, provider, now }), admin));
  return { rateControl: admin.rateControl };
}

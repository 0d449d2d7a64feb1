import type { FastifyInstance } from 'fastify';
import { caller, type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { type AccountService, createAccountService } from './account.service';

function accountHandlers(account: AccountService): Handlers {
  const actor = (ctx: Parameters<typeof caller>[0] & { requestId: string }) => ({
    id: caller(ctx).id,
    requestId: ctx.requestId,
  });
  return {
    pageDetail: (ctx) => account.page(ctx.query.slug, ctx.locale),
    accountDelete: (ctx) => account.deleteAccount(actor(ctx), ctx.body.password),
    adminPageGet: (ctx) => account.adminPage(ctx.query.slug),
    adminPageSet: (ctx) => account.adminSetPage(actor(ctx), ctx.body),
  };
}

export function register(app: FastifyInstance, { db, now }: FeatureDeps) {
  registerRoutes(app, accountHandlers(createAccountService({ db, now })));
}

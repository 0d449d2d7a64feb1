import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import type { UploadFiles } from '../uploads';
import { type AccountAdmin, createAccountAdmin } from './account.admin';
import { type AccountService, createAccountService } from './account.service';

function accountHandlers(account: AccountService, admin: AccountAdmin): Handlers {
  return {
    pageDetail: (ctx) => account.page(ctx.query.slug, ctx.locale),
    accountDelete: (ctx) => account.deleteAccount(ctx.actor, ctx.body.password),
    adminPageGet: (ctx) => admin.page(ctx.query.slug),
    adminPageSet: (ctx) => admin.setPage(ctx.actor, ctx.body),
  };
}

export function register(app: FastifyInstance, { db, now, config, uploads }: FeatureDeps & { uploads: UploadFiles }) {
  const account = createAccountService({ db, now, uploads, identitySecret: config.IDENTITY_HASH_SECRET });
  registerRoutes(app, accountHandlers(account, createAccountAdmin({ db, now })));
}

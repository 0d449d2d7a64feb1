import { DATA_EXPORTS_PER_HOUR } from '@kamai/contract';
import type { FastifyInstance } from 'fastify';
import { HOUR_S, type RateLimits } from '../../platform/rate-limit';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import type { UploadFiles } from '../uploads';
import { type AccountAdmin, createAccountAdmin } from './account.admin';
import { createDataExport } from './account.export';
import { type AccountService, createAccountService } from './account.service';

type DataExporter = ReturnType<typeof createDataExport>;

function accountHandlers(account: AccountService, admin: AccountAdmin, exportData: DataExporter): Handlers {
  return {
    pageDetail: (ctx) => account.page(ctx.query.slug, ctx.locale),
    accountDelete: (ctx) => account.deleteAccount(ctx.actor, ctx.body.password),
    accountExport: (ctx) => exportData(ctx.user.id),
    adminPageGet: (ctx) => admin.page(ctx.query.slug),
    adminPageSet: (ctx) => admin.setPage(ctx.actor, ctx.body),
  };
}

export function register(
  app: FastifyInstance,
  { db, now, config, uploads, rates }: FeatureDeps & { uploads: UploadFiles; rates: RateLimits },
) {
  const account = createAccountService({
    db,
    now,
    uploads,
    identitySecret: config.IDENTITY_HASH_SECRET,
    previousIdentitySecrets: config.IDENTITY_HASH_SECRET_PREVIOUS,
  });
  const exportData = createDataExport({
    db,
    now,
    perUser: rates.limit('data-export:user', DATA_EXPORTS_PER_HOUR, HOUR_S),
  });
  registerRoutes(app, accountHandlers(account, createAccountAdmin({ db, now }), exportData));
}

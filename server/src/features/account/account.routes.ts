import { caller, type Handlers } from '../../platform/routes';
import type { AccountService } from './account.service';

export function accountHandlers(account: AccountService): Handlers {
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

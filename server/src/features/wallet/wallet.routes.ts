import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createWalletAdmin, type WalletAdmin } from './wallet.admin';
import type { LedgerRule } from './wallet.rules';
import { createWalletService, type WalletService } from './wallet.service';

function walletHandlers(wallet: WalletService, admin: WalletAdmin): Handlers {
  return {
    balanceList: (ctx) => wallet.balanceList(ctx.user.id, ctx.query, ctx.locale),
    incomeDaily: (ctx) => wallet.incomeDaily(ctx.user.id, ctx.query),
    adminLedgerCheck: (ctx) => admin.checkLedger(ctx.actor.id),
  };
}

/** `ledgerRules`: the business rules the features supply, composed by `app.ts` (the wallet imports none of them). */
export function register(
  app: FastifyInstance,
  { db, replica, now, ledgerRules }: FeatureDeps & { ledgerRules: readonly LedgerRule[] },
) {
  registerRoutes(
    app,
    walletHandlers(createWalletService({ db, now }), createWalletAdmin({ replica, rules: ledgerRules })),
  );
}

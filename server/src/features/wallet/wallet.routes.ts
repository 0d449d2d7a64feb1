import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createWalletAdmin, type WalletAdmin } from './wallet.admin';
import { createWalletService, type WalletService } from './wallet.service';

function walletHandlers(wallet: WalletService, admin: WalletAdmin): Handlers {
  return {
    balanceList: (ctx) => wallet.balanceList(ctx.user.id, ctx.query, ctx.locale),
    incomeDaily: (ctx) => wallet.incomeDaily(ctx.user.id, ctx.query),
    adminLedgerCheck: () => admin.checkLedger(),
  };
}

export function register(app: FastifyInstance, { db, now }: FeatureDeps) {
  registerRoutes(app, walletHandlers(createWalletService({ db, now }), createWalletAdmin({ db })));
}

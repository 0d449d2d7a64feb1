import type { FastifyInstance } from 'fastify';
import { caller, type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createWalletService, type WalletService } from './wallet.service';

function walletHandlers(wallet: WalletService): Handlers {
  return {
    balanceList: (ctx) => wallet.balanceList(caller(ctx).id, ctx.query, ctx.locale),
    adminLedgerCheck: () => wallet.checkLedger(),
  };
}

export function register(app: FastifyInstance, { db }: FeatureDeps) {
  registerRoutes(app, walletHandlers(createWalletService({ db })));
}

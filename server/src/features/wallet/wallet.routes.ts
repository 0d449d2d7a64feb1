import { caller, type Handlers } from '../../platform/routes';
import type { WalletService } from './wallet.service';

export function walletHandlers(wallet: WalletService): Handlers {
  return {
    balanceList: (ctx) => wallet.balanceList(caller(ctx).id, ctx.query, ctx.locale),
    adminLedgerCheck: () => wallet.checkLedger(),
  };
}

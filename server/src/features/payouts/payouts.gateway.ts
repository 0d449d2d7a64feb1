import type { PayoutAccountType } from '@kamai/contract';

/** One payout as we hand it to a gateway. */
export interface PayoutOrder {
  /** Our withdrawal id: the gateway's idempotency key, so a repeated dispatch is the same payout. */
  orderNo: string;
  /** Paise. */
  amount: bigint;
  account: { accountType: PayoutAccountType; accountNo: string; ifsc: string; accountName: string };
  /** Where the gateway reports the outcome (our signed callback). */
  notifyUrl: string;
}

/**
 * A payout provider (DESIGN.md §2): accepts an order and later calls the signed callback with success
 * or failure. `dispatch` resolves once the gateway has the order (a repeat of an order it has is
 * accepted again and never paid twice) and throws when that is not known (network, timeout, 5xx),
 * so the caller retries with the same order number.
 */
export interface PayoutGateway {
  readonly name: string;
  dispatch(order: PayoutOrder, signal: AbortSignal): Promise<void>;
}

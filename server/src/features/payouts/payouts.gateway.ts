import type { PayoutAccountType, PayoutGatewayName, PayoutMismatchKind } from '@kamai/contract';

/** One payout as we hand it to a gateway. */
export interface PayoutOrder {
  /** Our withdrawal id (the sandbox's order number and idempotency key). */
  orderNo: string;
  /**
   * What the payout is sent under at a shared gateway (RazorpayX `reference_id`, at most 40 characters)
   * and its idempotency key (4-36 characters): fixed on the withdrawal at its first dispatch, unique per
   * installation (payouts.references.ts), the same on every retry.
   */
  reference: string;
  idempotencyKey: string;
  /** The withdrawal's owner (RazorpayX: the contact's reference). */
  userId: number;
  /** Paise. */
  amount: bigint;
  account: { accountType: PayoutAccountType; accountNo: string; ifsc: string; accountName: string };
  /** Where the gateway reports the outcome (our signed callback); null: nowhere yet (nothing listens). */
  notifyUrl: string | null;
  /** The gateway's id of this payout when an earlier dispatch learned it (reconciliation fetches by it). */
  payoutId: string | null;
  /**
   * Whether an earlier dispatch may have reached the gateway (a retried job, or a withdrawal already
   * processing): a refusal is then ambiguous and never settles it as failed without a lookup.
   */
  attempted?: boolean;
}

/**
 * What a gateway knows of a payout when it answers. `processing`: not settled yet (the webhook or the
 * callback will tell). The others settle the withdrawal the way the matching callback would.
 */
export type PayoutOutcome =
  | { status: 'processing' }
  | { status: 'paid'; reference: string | null }
  | { status: 'failed'; reason: string | null }
  | { status: 'reversed'; reason: string | null };

export interface DispatchResult {
  /** The gateway's id of the payout, when it has one (RazorpayX `pout_...`). */
  payoutId?: string;
  /** Its state as the gateway answered; absent: processing, reported later by callback. */
  outcome?: PayoutOutcome;
  /** The gateway's answer as evidence (recorded with the outcome when it settles the withdrawal). */
  evidence?: Record<string, unknown>;
  /** The gateway's own status word (`processed`, `failed`, ...) for the evidence and the dedupe key. */
  gatewayStatus?: string;
}

/**
 * A payout provider (docs/design.md "Scope"): accepts an order and later reports success or failure. `dispatch`
 * resolves once the gateway has the order (a repeat of an order it has is accepted again and never paid
 * twice; a gateway that can be asked answers the payout's current state instead) and throws when that
 * is not known (network, timeout, 5xx, refused credentials), so the caller retries with the same order.
 * A refusal that can never succeed (the gateway's validation error) resolves with a `failed` outcome.
 */
export interface PayoutGateway {
  readonly name: string;
  dispatch(order: PayoutOrder, signal: AbortSignal): Promise<DispatchResult | undefined>;
}

/** The gateways a withdrawal can be paid through, by the name stored on it. */
export type PayoutGateways = Partial<Record<PayoutGatewayName, PayoutGateway>>;

/** A settling report from a gateway, whatever its channel (callback, webhook, fetched by us). */
export interface Report {
  gateway: PayoutGatewayName;
  /** Unique per (payout, status): a second delivery of the same report changes nothing. */
  eventKey: string;
  /** The gateway's own word: `success`/`failed` (masterpay), `processed`, `reversed`, ... (RazorpayX). */
  gatewayStatus: string;
  outcome: Exclude<PayoutOutcome, { status: 'processing' }>;
  /** Paise the gateway says it moved, when it says. */
  amount: bigint | null;
  /** The currency the gateway says it moved, when it says (only INR is ours). */
  currency?: string | null;
  payload: Record<string, unknown>;
  /** The mismatch kind a contradiction opens (`callback` for a report; reconciliation says `status` or `amount`). */
  kind?: PayoutMismatchKind;
}

export type Applied = 'applied' | 'duplicate' | 'unchanged' | 'stale' | 'mismatch';

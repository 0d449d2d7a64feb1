import { createHash } from 'node:crypto';
import {
  businessDayStart,
  formatMoneyVars,
  type MessageKey,
  parseRupees,
  RISK_REASON_KEYS,
  RISK_SCORE_MAX,
  RISK_SIGNALS,
  recipientNameProblem,
  SYSTEM_TASK_IDS,
} from '@kamai/contract';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { SETTING_DEFAULTS } from '../../server/src/platform/settings.queries';
import { callerOf, inTransaction, localeOf, ok, Refusal, refuse, rupees } from './writes-http';

const SCOPE = 'withdraw/add';
const KEY_PATTERN = /^[\x21-\x7e]{1,100}$/;
const CATALOGUE_JSON = JSON.stringify(RISK_SIGNALS.map((signal) => [signal, RISK_REASON_KEYS[signal]]));

const TAKE_KEY = {
  name: 'minimal_withdraw_take_key',
  text: `insert into idempotency_keys (user_id, scope, key, request_hash) values ($1, $2, $3, $4)
    on conflict do nothing returning key`,
};
const READ_KEY = {
  name: 'minimal_withdraw_read_key',
  text: 'select request_hash, response from idempotency_keys where user_id = $1 and scope = $2 and key = $3',
};
/** The wallet and the hold (if the user has one), locked in id order, with the frozen flag. */
const LOCK = {
  name: 'minimal_withdraw_lock',
  text: `select a.id, a.kind, a.balance::text, u.frozen from users u
    join accounts a on a.user_id = u.id and a.kind in ('wallet', 'hold')
    where u.id = $1 order by a.id for update of a`,
};
const NEW_HOLD = {
  name: 'minimal_withdraw_new_hold',
  text: `insert into accounts (user_id, kind) values ($1, 'hold') on conflict (user_id, kind) do nothing`,
};
/** The payout account (the default one when $2 is null) with its bank check, share-locked. */
const ACCOUNT = {
  name: 'minimal_withdraw_account',
  text: `select pa.id, pa.account_type, pa.ifsc, pa.account_no, pa.account_name, v.status, v.account_status
    from payout_accounts pa left join account_validations v on v.id = pa.validation_id
    where pa.user_id = $1 and (case when $2::bigint is null then pa.is_default else pa.id = $2::bigint end)
    limit 1 for share of pa`,
};
/** The two settings and today's use of the limits (cancelled requests counted apart). */
const TODAY = {
  name: 'minimal_withdraw_today',
  text: `select (select value from settings where key = 'withdrawal') as limits,
      (select value from settings where key = 'risk') as risk,
      (count(*) filter (where w.state <> 'cancelled'))::int as n,
      coalesce(sum(w.amount) filter (where w.state <> 'cancelled'), 0)::text as total,
      (count(*) filter (where w.state = 'cancelled'))::int as cancelled
    from withdrawals w where w.user_id = $1 and w.created_at >= $2`,
};
/**
 * The limits' verdict and the risk score by the schema's own functions (db/functions), so both apps
 * refuse alike and write the same columns.
 */
const RISK = {
  name: 'minimal_withdraw_risk',
  text: `select withdrawal_limit_problem($10, $11, $12, $13::int, $14, $15::int, $16, $17::int) as p,
    withdrawal_risk(withdrawal_risk_facts($1, $2, $3, $4, $5), $6::jsonb, $7, $8::jsonb, $9) as r`,
};
/** The withdrawal, its history, the hold posting with its two entries, both balances and the key's answer. */
const WRITE = {
  name: 'minimal_withdraw_write',
  text: `with w as (
      insert into withdrawals (risk_score, risk_reasons, approvals_required, user_id, account_id, account_type,
        ifsc, account_no, account_name, amount, fee, state, created_at, updated_at)
      values ($1, $2::jsonb, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'pending', $12, $12) returning id
    ), h as (
      insert into withdrawal_history (withdrawal_id, to_state, actor_id, created_at) select id, 'pending', $4, $12 from w
    ), p as (
      insert into postings (type, idempotency_key, ref)
      select 'withdrawal_hold', 'withdrawal:' || id || ':hold', jsonb_build_object('withdrawalId', id) from w
      returning id
    ), e as (
      insert into entries (posting_id, account_id, amount, balance_after)
      select p.id, x.account, x.amount, x.after from p
      cross join (values (1, $13::bigint, -$10::bigint, $14::bigint), (2, $15::bigint, $10::bigint, $16::bigint))
        as x(o, account, amount, after)
      order by x.o
    ), b as (
      update accounts set balance = case when id = $13 then $14::bigint else $16::bigint end where id in ($13, $15)
    ), k as (
      update idempotency_keys set response = jsonb_build_object('id', w.id) from w
      where $17::text is not null and user_id = $4 and scope = $18 and key = $17
    )
    select id from w`,
};

interface Locked {
  wallet?: { id: string; balance: bigint };
  hold?: { id: string; balance: bigint };
  frozen: boolean;
}

async function lockAccounts(client: pg.PoolClient, userId: number): Promise<Locked> {
  const { rows } = await client.query({ ...LOCK, values: [userId] });
  const locked: Locked = { frozen: false };
  for (const row of rows) {
    locked.frozen = row.frozen;
    locked[row.kind as 'wallet' | 'hold'] = { id: row.id, balance: BigInt(row.balance) };
  }
  return locked;
}

function settingsOf(limitsStored: unknown, riskStored: unknown) {
  const stored = (v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const limits = { ...SETTING_DEFAULTS.withdrawal, ...stored(limitsStored) };
  const riskOwn = stored(riskStored);
  const risk = {
    ...SETTING_DEFAULTS.risk,
    ...riskOwn,
    weights: { ...SETTING_DEFAULTS.risk.weights, ...stored(riskOwn.weights) },
  };
  return { limits, risk };
}

/** POST user/withdraw/add: the same checks, in the same order, and the same rows as Kamai's `withdraw_request`. */
export function withdrawAdd(app: FastifyInstance, pool: pg.Pool) {
  app.post('/go_user/api/v1/user/withdraw/add', async (request, reply) => {
    const locale = localeOf(request);
    try {
      const caller = await callerOf(pool, request);
      const body = (request.body ?? {}) as { amount?: unknown; accountId?: unknown };
      const amount =
        typeof body.amount === 'string' || typeof body.amount === 'number' ? parseRupees(body.amount) : undefined;
      if (amount === undefined || amount <= 0n) throw new Refusal('invalid_amount');
      const accountId =
        body.accountId === undefined || body.accountId === null ? null : Number(body.accountId as string | number);
      if (accountId !== null && !(Number.isSafeInteger(accountId) && accountId > 0)) {
        throw new Refusal('payout_account_not_found');
      }
      const keyHeader = request.headers['idempotency-key'];
      const key = typeof keyHeader === 'string' ? keyHeader : null;
      if (key !== null && !KEY_PATTERN.test(key)) throw new Refusal('validation_failed');
      const hash = createHash('sha256')
        .update(JSON.stringify({ amount: amount.toString(), accountId }))
        .digest('hex');
      const at = new Date();
      const data = await inTransaction(pool, async (client) => {
        if (key !== null) {
          const taken = await client.query({ ...TAKE_KEY, values: [caller.id, SCOPE, key, hash] });
          if (taken.rowCount === 0) {
            const { rows } = await client.query({ ...READ_KEY, values: [caller.id, SCOPE, key] });
            if (rows[0].request_hash !== hash) throw new Refusal('idempotency_key_reused');
            return rows[0].response as { id: number };
          }
        }
        let locked = await lockAccounts(client, caller.id);
        if (locked.frozen) throw new Refusal('account_frozen');
        if (!locked.wallet) throw new Error(`wallet of user ${caller.id} vanished`);
        if (!locked.hold) {
          await client.query({ ...NEW_HOLD, values: [caller.id] });
          locked = await lockAccounts(client, caller.id);
        }
        const { wallet, hold } = locked as Required<Locked>;
        const account = (await client.query({ ...ACCOUNT, values: [caller.id, accountId] })).rows[0];
        if (!account) throw new Refusal(accountId === null ? 'withdrawal_info_incomplete' : 'payout_account_not_found');
        if (recipientNameProblem(account.account_name)) throw new Refusal('payout_account_name_rebind');
        // A bank check that failed, or answered anything but an active account, takes no withdrawal.
        if (account.status && account.status !== 'pending') {
          if (!(account.status === 'completed' && account.account_status === 'active')) {
            throw new Refusal('payout_account_unverified');
          }
        }
        const today = (await client.query({ ...TODAY, values: [caller.id, businessDayStart(at)] })).rows[0];
        const { limits, risk } = settingsOf(today.limits, today.risk);
        const fee = BigInt(limits.feePaise);
        const checked = (
          await client.query({
            ...RISK,
            values: [
              caller.id,
              account.account_type,
              account.account_no,
              account.ifsc,
              SYSTEM_TASK_IDS.register,
              JSON.stringify(risk),
              at,
              CATALOGUE_JSON,
              RISK_SCORE_MAX,
              amount.toString(),
              limits.minPaise,
              limits.maxPaise,
              limits.dailyCount,
              limits.dailyTotalPaise,
              today.n,
              today.total,
              today.cancelled,
            ],
          })
        ).rows[0] as {
          p: { key: MessageKey; vars: Record<string, unknown> } | null;
          r: { score: number; reasons: string[] };
        };
        if (checked.p) throw new Refusal(checked.p.key, formatMoneyVars(checked.p.vars, rupees));
        if (amount <= fee) throw new Refusal('withdrawal_fee_too_high', { fee: rupees(fee) });
        if (wallet.balance < amount) throw new Refusal('insufficient_balance');
        const scored = checked.r;
        const approvals = amount > BigInt(risk.secondApprovalAbovePaise) ? 2 : 1;
        const { rows } = await client.query({
          ...WRITE,
          values: [
            scored.score,
            JSON.stringify(scored.reasons),
            approvals,
            caller.id,
            account.id,
            account.account_type,
            account.ifsc,
            account.account_no,
            account.account_name,
            amount.toString(),
            fee.toString(),
            at,
            wallet.id,
            (wallet.balance - amount).toString(),
            hold.id,
            (hold.balance + amount).toString(),
            key,
            SCOPE,
          ],
        });
        return { id: Number(rows[0].id) };
      });
      return ok(locale, 'withdrawal_submitted', data);
    } catch (error) {
      return refuse(reply, locale, error);
    }
  });
}

import {
  type RiskReasonKey,
  WITHDRAWAL_OPEN_STATES,
  type WithdrawalLimitRefusal,
  type WithdrawalLimitsPaise,
  type WithdrawalState,
  type WithdrawalsToday,
} from '@kamai/contract';
import {
  type AnyColumn,
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gt,
  gte,
  inArray,
  lt,
  ne,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import {
  builtOnce,
  builtOnceText,
  builtPerShape,
  partsOf,
  preparedPer,
  rowPlaceholders,
  type StatementPart,
} from '../../db/prepared';
import { users, withdrawalHistory, withdrawals } from '../../db/schema';
import { fingerprintOf, type PayeeRead, payeeCheckSql, payeeFromJson } from '../payout-accounts';

export type WithdrawalRow = typeof withdrawals.$inferSelect;
export type NewWithdrawal = typeof withdrawals.$inferInsert;
export type HistoryRow = typeof withdrawalHistory.$inferSelect;

export async function findWithdrawal(db: Executor, id: number) {
  const [row] = await db.select().from(withdrawals).where(eq(withdrawals.id, id)).limit(1);
  return row;
}

// Built by drizzle once per process and named (`builtOnce`): the first read of every review and
// payout change, inside its transaction (benchmark 3, docs/performance.md).
const lockQuery = builtOnce('kamai_withdrawal_lock', (db: Executor) =>
  db
    .select()
    .from(withdrawals)
    .where(eq(withdrawals.id, sql.placeholder('id')))
    .limit(1)
    .for('update'),
);

/** Locks a withdrawal for a state change: concurrent changes of one withdrawal run one after another. */
export async function lockWithdrawal(db: Executor, id: number) {
  const [row] = await lockQuery(db).execute({ id });
  return row;
}

/** The other writes of a change, for `updateWithdrawalWith`: each a data-modifying CTE built by its owner. */
export interface ChangeWrites {
  /** The history row of a state change. */
  history?: Omit<typeof withdrawalHistory.$inferInsert, 'withdrawalId'>;
  /** The notification, a job, the audit row, each with its values as placeholders: CTE names must differ. */
  also?: StatementPart[];
}

/** The placeholder values of `requestWithdrawal`: instants as ISO strings, paise as text. */
export type WithdrawalRequestParams = {
  userId: number;
  amount: string;
  /** Null: the default payout account. */
  accountId: number | null;
  at: string;
  /** Midnight in India of `at`'s day: the daily limits count from it. */
  dayStart: string;
  scope: string;
  /** Null without an Idempotency-Key. */
  key: string | null;
  hash: string;
  /** JSON: what the function takes from the application (db/functions `withdraw_request`). */
  constants: string;
};

const p = <K extends keyof WithdrawalRequestParams>(name: K) => sql.placeholder(name);

/**
 * `withdraw/add` as one prepared statement run on its own (its own transaction): the database's
 * `withdraw_request` (db/functions) takes the idempotency key, locks, checks, scores, writes the
 * withdrawal, its history and the hold posting. Throws the refusals it raises (SQLSTATE KMAPP).
 */
const withdrawRequest = preparedPer((db: Db) =>
  db
    .select({ response: sql<{ id: number }>`w` })
    .from(
      sql`withdraw_request(${p('userId')}::bigint, ${p('amount')}::bigint, ${p('accountId')}::bigint,
        ${p('at')}::timestamptz, ${p('dayStart')}::timestamptz, ${p('scope')}::text, ${p('key')}::text,
        ${p('hash')}::text, ${p('constants')}::jsonb) as w`,
    )
    .prepare('kamai_withdraw_request'),
);

export async function requestWithdrawal(db: Db, params: WithdrawalRequestParams): Promise<{ id: number }> {
  const [row] = await withdrawRequest(db).execute(params);
  if (!row) throw new Error('withdraw_request answered no row');
  return row.response;
}

/**
 * Adds risk reasons to a withdrawal still pending and still paying the account it was read with, in one
 * statement under the row's lock: the reasons in `order` (the catalogue's) that it has or is given, and
 * its score raised by the weight of each reason it did not have, at most `max`. Answers whether the
 * withdrawal is pending and pays that account (with none to add, that is all it does); one that had
 * them all is left as it was.
 */
export async function addRiskReasons(
  db: Executor,
  id: number,
  paying: { accountType: string; ifsc: string; accountNo: string; accountName: string },
  added: Record<string, number>,
  order: readonly string[],
  max: number,
): Promise<boolean> {
  const result = await riskReasonsAdd(db, {
    id,
    accountType: paying.accountType,
    ifsc: paying.ifsc,
    accountNo: paying.accountNo,
    accountName: paying.accountName,
    given: JSON.stringify(added),
    order: JSON.stringify(order),
    max,
  });
  const row = (result as { rows: { found: number | string }[] }).rows[0];
  return Number(row?.found ?? 0) > 0;
}

const rp = (name: string) => sql.placeholder(name);
// Built once per process and named (`builtOnceText`): withdraw/add's statement after the request
// (benchmark 3, docs/performance.md).
const riskReasonsAdd = builtOnceText(
  'kamai_withdrawal_risk_add',
  () => sql`with target as (
      select ${withdrawals.id} as id from ${withdrawals}
      where ${withdrawals.id} = ${rp('id')} and ${withdrawals.state} = 'pending'
        and ${withdrawals.accountType} = ${rp('accountType')} and ${withdrawals.ifsc} = ${rp('ifsc')}
        and ${withdrawals.accountNo} = ${rp('accountNo')} and ${withdrawals.accountName} = ${rp('accountName')}
      for update),
    changed as (
      update ${withdrawals} w set
        risk_reasons = (select coalesce(jsonb_agg(k order by o), '[]'::jsonb)
          from jsonb_array_elements_text(${rp('order')}::jsonb) with ordinality as t(k, o)
          where w.risk_reasons ? k or ${rp('given')}::jsonb ? k),
        risk_score = least(${rp('max')}::int, w.risk_score + (select coalesce(sum(g.value::int), 0)
          from jsonb_each_text(${rp('given')}::jsonb) g where not w.risk_reasons ? g.key))
      from target
      where w.id = target.id
        and exists (select 1 from jsonb_object_keys(${rp('given')}::jsonb) g(key) where not w.risk_reasons ? g.key)
      returning w.id)
    select (select count(*) from target)::int as found`,
);

/**
 * A withdrawal as the console shows it: the row, its owner's username, every state it was in and the
 * check of the number it pays with the names it is compared with (absent when never checked).
 */
export interface WithdrawalView {
  row: WithdrawalRow;
  username: string;
  history: HistoryRow[];
  payee?: PayeeRead;
}

/**
 * Updates a withdrawal and writes the rest of the same change in one statement (its history row and
 * `also`, in data-modifying CTEs), on a row the caller locked.
 */
export async function updateWithdrawalWith(
  db: Executor,
  id: number,
  values: Partial<NewWithdrawal>,
  writes: ChangeWrites,
): Promise<WithdrawalRow> {
  return (await update(db, id, values, writes, undefined)).row;
}

/**
 * `updateWithdrawalWith`, answering in the same statement what the console shows of the result: the
 * owner's username, the whole history, the row written here included (a CTE's new rows are not
 * visible to the rest of its statement, so it is added from the CTE's own output), and the check of
 * the number it pays with the names on the owner's other accounts and the name-match setting
 * (`current`: the locked row; a change never edits the account it pays).
 */
export function updateWithdrawalWithView(
  db: Executor,
  current: WithdrawalRow,
  values: Partial<NewWithdrawal>,
  writes: ChangeWrites,
): Promise<WithdrawalView> {
  return update(db, current.id, values, writes, fingerprintOf(current));
}

const historyColumns = sql.raw('id, withdrawal_id, from_state, to_state, reason, actor_id, created_at');

// Built by drizzle once per shape (which columns it sets, which CTEs it carries, with the console's
// view or not) and named by its text: every value is a placeholder (benchmark 3, docs/performance.md).
const runChange = builtPerShape('kamai_withdrawal_change');

async function update(
  db: Executor,
  id: number,
  values: Partial<NewWithdrawal>,
  writes: ChangeWrites,
  /** The paid number's fingerprint when the answer is the console's view; none for the row alone. */
  payee: string | undefined,
): Promise<WithdrawalView> {
  const view = payee !== undefined;
  const set = rowPlaceholders(withdrawals, 'set', values);
  const history = writes.history
    ? rowPlaceholders(withdrawalHistory, 'recorded', { ...writes.history, withdrawalId: id })
    : undefined;
  const also = partsOf(writes.also ?? []);
  const shape = `${view ? 'view' : 'row'};${set.shape};${history?.shape ?? ''};${also.shape}`;
  const params = { ...set.params, ...history?.params, ...also.params, id, ...(view ? { payee } : {}) };
  const [result] = await runChange(
    db,
    shape,
    (db) => {
      const recorded = history
        ? db.$with('recorded').as(db.insert(withdrawalHistory).values(history.row()).returning())
        : undefined;
      // Spelled out: in a one-table statement drizzle leaves columns unqualified.
      const self = sql`${withdrawals}.${sql.identifier(withdrawals.id.name)}`;
      const owner = sql`${withdrawals}.${sql.identifier(withdrawals.userId.name)}`;
      const shown: Record<string, SQL> = view
        ? {
            viewUsername: sql<string>`(select u.username from users u where u.id = ${owner})`,
            viewHistory: sql<string>`(select coalesce(json_agg(h order by h.id), '[]')::text from (
          select ${historyColumns} from withdrawal_history where withdrawal_id = ${self}
          ${recorded ? sql`union all select ${historyColumns} from ${recorded}` : sql``}) h)`,
            viewCheck: payeeCheckSql(sql`${sql.placeholder('payee')}`, owner),
          }
        : {};
      return db
        .with(...(recorded ? [recorded] : []), ...also.ctes(db))
        .update(withdrawals)
        .set(set.row())
        .where(eq(withdrawals.id, sql.placeholder('id')))
        .returning({ ...getTableColumns(withdrawals), ...shown });
    },
    params,
  );
  if (!result) throw new Error(`withdrawal ${id} vanished while locked`);
  const { viewUsername, viewHistory, viewCheck, ...row } = result as WithdrawalRow & {
    viewUsername?: string;
    viewHistory?: string;
    viewCheck?: string | null;
  };
  return {
    row,
    username: viewUsername ?? '',
    history: view ? historyFromJson(String(viewHistory)) : [],
    payee: payeeFromJson(viewCheck),
  };
}

function historyFromJson(text: string): HistoryRow[] {
  const rows = JSON.parse(text) as Record<string, unknown>[];
  return rows.map((h) => ({
    id: Number(h.id),
    withdrawalId: Number(h.withdrawal_id),
    fromState: (h.from_state ?? null) as HistoryRow['fromState'],
    toState: h.to_state as HistoryRow['toState'],
    reason: (h.reason ?? null) as string | null,
    actorId: h.actor_id === null || h.actor_id === undefined ? null : Number(h.actor_id),
    createdAt: new Date(String(h.created_at)),
  }));
}

/** Every state of the given withdrawals, oldest first. */
export async function historyOf(db: Executor, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(withdrawalHistory)
    .where(inArray(withdrawalHistory.withdrawalId, ids))
    .orderBy(asc(withdrawalHistory.withdrawalId), asc(withdrawalHistory.id));
}

/**
 * The user's use of the limits since `since` and what the limits refuse for the rest of that day, both
 * from the database (db/functions `withdrawal_usage`, `withdrawal_limit_refusals`), which applies the
 * same functions under the wallet lock in `withdraw_request`.
 */
export async function limitsToday(
  db: Executor,
  userId: number,
  since: Date,
  limits: WithdrawalLimitsPaise,
): Promise<WithdrawalsToday & { requestsLeft: number; refusals: WithdrawalLimitRefusal[] }> {
  const result = await db.execute(sql`
    select u.o_count as count, u.o_total::text as total, u.o_cancelled as cancelled,
      withdrawal_limit_refusals(${limits.min.toString()}::bigint, ${limits.max.toString()}::bigint,
        ${limits.dailyCount}::int, ${limits.dailyTotal.toString()}::bigint, u.o_count, u.o_total, u.o_cancelled) as limits
    from withdrawal_usage(${userId}::bigint, ${since.toISOString()}::timestamptz) u`);
  const [row] = (
    result as unknown as {
      rows: {
        count: number;
        total: string;
        cancelled: number;
        limits: { requestsLeft: number; refusals: WithdrawalLimitRefusal[] } | string;
      }[];
    }
  ).rows;
  if (!row) throw new Error('withdrawal_usage answered no row');
  const answer = typeof row.limits === 'string' ? JSON.parse(row.limits) : row.limits;
  return {
    count: Number(row.count),
    total: BigInt(row.total),
    cancelled: Number(row.cancelled),
    requestsLeft: Number(answer.requestsLeft),
    refusals: answer.refusals,
  };
}

/** The user's withdrawals, newest first; `beforeId` continues a page. */
export async function listOwn(db: Executor, userId: number, limit: number, beforeId?: number) {
  return db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.userId, userId), beforeId === undefined ? undefined : lt(withdrawals.id, beforeId)))
    .orderBy(desc(withdrawals.id))
    .limit(limit);
}

export interface AdminFilter {
  state?: WithdrawalState;
  /** Everything but pending (the second segment of the unfiltered list). */
  notPending?: boolean;
  userId?: number;
  from?: Date;
  /** Exclusive. */
  to?: Date;
  /** Scored at least this much. */
  minRisk?: number;
  /** Carrying this risk reason (catalogue key). */
  reason?: string;
}

function adminConditions(filter: AdminFilter) {
  return [
    filter.state === undefined ? undefined : eq(withdrawals.state, filter.state),
    filter.notPending ? ne(withdrawals.state, 'pending') : undefined,
    filter.userId === undefined ? undefined : eq(withdrawals.userId, filter.userId),
    filter.from === undefined ? undefined : gte(withdrawals.createdAt, filter.from),
    filter.to === undefined ? undefined : lt(withdrawals.createdAt, filter.to),
    filter.minRisk === undefined ? undefined : gte(withdrawals.riskScore, filter.minRisk),
    filter.reason === undefined
      ? undefined
      : sql`${withdrawals.riskReasons} @> ${JSON.stringify([filter.reason])}::jsonb`,
  ];
}

/** Withdrawals with their owner's username, riskiest first (then newest first), after `after` in that order. */
export async function listForAdminByRisk(
  db: Executor,
  filter: AdminFilter,
  limit: number,
  after?: { score: number; id: number },
) {
  return db
    .select({ withdrawal: withdrawals, username: users.username })
    .from(withdrawals)
    .innerJoin(users, eq(users.id, withdrawals.userId))
    .where(
      and(
        ...adminConditions(filter),
        after === undefined
          ? undefined
          : sql`(${withdrawals.riskScore}, ${withdrawals.id}) < (${after.score}, ${after.id})`,
      ),
    )
    .orderBy(desc(withdrawals.riskScore), desc(withdrawals.id))
    .limit(limit);
}

/** Withdrawals with their owner's username, by id in `order`, continuing after `afterId` in that order. */
export async function listForAdmin(
  db: Executor,
  filter: AdminFilter,
  order: 'asc' | 'desc',
  limit: number,
  afterId?: number,
) {
  return db
    .select({ withdrawal: withdrawals, username: users.username })
    .from(withdrawals)
    .innerJoin(users, eq(users.id, withdrawals.userId))
    .where(
      and(
        ...adminConditions(filter),
        afterId === undefined ? undefined : order === 'asc' ? gt(withdrawals.id, afterId) : lt(withdrawals.id, afterId),
      ),
    )
    .orderBy(order === 'asc' ? asc(withdrawals.id) : desc(withdrawals.id))
    .limit(limit);
}

export async function usernameOf(db: Executor, userId: number) {
  const [row] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.username ?? '';
}

export async function isFrozen(db: Executor, userId: number) {
  const [row] = await db.select({ frozen: users.frozen }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.frozen ?? false;
}

/** Count, gross total and fees of the withdrawals waiting for review (the dashboard's figure). */
export async function pendingFigure(db: Executor): Promise<{ count: number; amount: bigint; fee: bigint }> {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      amount: sql<string>`coalesce(sum(${withdrawals.amount}), 0)::text`,
      fee: sql<string>`coalesce(sum(${withdrawals.fee}), 0)::text`,
    })
    .from(withdrawals)
    .where(eq(withdrawals.state, 'pending'));
  return { count: Number(row?.count ?? 0), amount: BigInt(row?.amount ?? '0'), fee: BigInt(row?.fee ?? '0') };
}

/**
 * The `withdrawal_postings_state` rule's evidence: for every withdrawal whose postings do not match its
 * state, each posting type's count, posting ids and entries summed per account role (the user's wallet
 * and hold, platform payouts and revenue, anything else as absolute paise), and what the state expects:
 * a hold always (wallet −amount, hold +amount); a refund when failed, rejected or cancelled (hold back
 * to the wallet); a paid posting when paid or reversed (hold −amount, payouts amount − fee, revenue the
 * fee); a reversal when reversed (payouts −(amount − fee), revenue −fee, wallet +amount). For a deleted
 * account the returned money goes to `platform_unclaimed`, which counts in the wallet's place (the
 * `unclaimed_for_deleted_account` rule checks that it is one). Postings are matched by type and
 * `ref.withdrawalId`, whatever their key.
 */
export async function withdrawalPostingsOffState(db: Executor) {
  const result = await db.execute(sql`
    with wp as (
      select p.id, p.type, p.ref->>'withdrawalId' as wid from postings p
      where p.type in ('withdrawal_hold', 'withdrawal_refund', 'withdrawal_paid', 'withdrawal_reversal')
    ),
    per as (
      select w.id, w.state, w.amount, w.fee, t.type,
        count(distinct wp.id)::int as n,
        coalesce(string_agg(distinct wp.id::text, ','), '') as ids,
        -- Money returned for a deleted account goes to platform_unclaimed in the wallet's place.
        coalesce(sum(e.amount) filter (where (a.user_id = w.user_id and a.kind = 'wallet')
          or (a.user_id is null and a.kind = 'platform_unclaimed')), 0) as wallet,
        coalesce(sum(e.amount) filter (where a.user_id = w.user_id and a.kind = 'hold'), 0) as hold,
        coalesce(sum(e.amount) filter (where a.user_id is null and a.kind = 'platform_payouts'), 0) as payouts,
        coalesce(sum(e.amount) filter (where a.user_id is null and a.kind = 'platform_revenue'), 0) as revenue,
        coalesce(sum(abs(e.amount)) filter (where not (
          (a.user_id = w.user_id and a.kind in ('wallet', 'hold'))
          or (a.user_id is null and a.kind in ('platform_payouts', 'platform_revenue', 'platform_unclaimed'))
        )), 0) as other
      from ${withdrawals} w
      cross join (values ('withdrawal_hold'), ('withdrawal_refund'), ('withdrawal_paid'), ('withdrawal_reversal')) t(type)
      left join wp on wp.wid = w.id::text and wp.type = t.type
      left join entries e on e.posting_id = wp.id
      left join accounts a on a.id = e.account_id
      group by w.id, t.type
    ),
    expected as (
      select per.*,
        case type
          when 'withdrawal_hold' then 1
          when 'withdrawal_refund' then (state in ('failed', 'rejected', 'cancelled'))::int
          when 'withdrawal_paid' then (state in ('paid', 'reversed'))::int
          else (state = 'reversed')::int
        end as want_n,
        case type when 'withdrawal_hold' then -amount when 'withdrawal_refund' then amount
          when 'withdrawal_reversal' then amount else 0 end as want_wallet,
        case type when 'withdrawal_hold' then amount when 'withdrawal_refund' then -amount
          when 'withdrawal_paid' then -amount else 0 end as want_hold,
        case type when 'withdrawal_paid' then amount - fee when 'withdrawal_reversal' then -(amount - fee)
          else 0 end as want_payouts,
        case type when 'withdrawal_paid' then fee when 'withdrawal_reversal' then -fee else 0 end as want_revenue
      from per
    ),
    judged as (
      select expected.*,
        n <> want_n or (n > 0 and (wallet, hold, payouts, revenue, other) <> (want_wallet, want_hold, want_payouts, want_revenue, 0)) as bad
      from expected
    )
    select id, state, amount::text, fee::text, type, n, want_n, ids, bad,
      wallet::text, hold::text, payouts::text, revenue::text, other::text,
      want_wallet::text, want_hold::text, want_payouts::text, want_revenue::text
    from judged
    where id in (select id from judged where bad)
    order by id, type`);
  return (result as unknown as { rows: Record<string, unknown>[] }).rows.map((r) => ({
    withdrawalId: Number(r.id),
    state: String(r.state) as WithdrawalState,
    amount: String(r.amount),
    fee: String(r.fee),
    type: String(r.type),
    count: Number(r.n),
    wantCount: Number(r.want_n),
    postingIds: String(r.ids).split(',').filter(Boolean),
    bad: r.bad === true || r.bad === 't',
    moved: { wallet: String(r.wallet), hold: String(r.hold), payouts: String(r.payouts), revenue: String(r.revenue) },
    other: String(r.other),
    want: {
      wallet: String(r.want_wallet),
      hold: String(r.want_hold),
      payouts: String(r.want_payouts),
      revenue: String(r.want_revenue),
    },
  }));
}

/** Postings of a withdrawal's types that name no withdrawal (`ref.withdrawalId` missing or unknown). */
export async function withdrawalPostingsWithoutWithdrawal(db: Executor) {
  const result = await db.execute(sql`
    select p.id, p.type, p.ref->>'withdrawalId' as wid from postings p
    where p.type in ('withdrawal_hold', 'withdrawal_refund', 'withdrawal_paid', 'withdrawal_reversal')
      and not exists (select 1 from ${withdrawals} w where w.id::text = p.ref->>'withdrawalId')
    order by p.id`);
  return (result as unknown as { rows: Record<string, unknown>[] }).rows.map((r) => ({
    postingId: String(r.id),
    type: String(r.type),
    ref: r.wid === null ? null : String(r.wid),
  }));
}

/** How many of the user's withdrawals are still open (pending, approved or processing). */
export async function countOpenWithdrawals(db: Executor, userId: number) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(withdrawals)
    .where(and(eq(withdrawals.userId, userId), inArray(withdrawals.state, [...WITHDRAWAL_OPEN_STATES])));
  return row?.n ?? 0;
}

/** The ids of the user's withdrawals (the order numbers their payouts went out under). */
export async function withdrawalIdsOf(db: Executor, userId: number): Promise<number[]> {
  const rows = await db.select({ id: withdrawals.id }).from(withdrawals).where(eq(withdrawals.userId, userId));
  return rows.map((r) => r.id);
}

/**
 * A deleted account's withdrawals are money records: amounts and states stay, the account behind
 * them goes (docs/decisions/account-deletion.md).
 */
export async function maskUserWithdrawalAccounts(db: Executor, userId: number) {
  await db
    .update(withdrawals)
    .set({
      accountNo: sql`case when length(${withdrawals.accountNo}) > 4 then '••••' || right(${withdrawals.accountNo}, 4) else '••••' end`,
      accountName: '',
      ifsc: '',
    })
    .where(eq(withdrawals.userId, userId));
}

/** Every withdrawal of the user, oldest first (the data export). */
export async function withdrawalsOf(db: Executor, userId: number) {
  return db.select().from(withdrawals).where(eq(withdrawals.userId, userId)).orderBy(asc(withdrawals.id));
}

/** Whether the user `userId` names requested a withdrawal: an SQL expression for another feature's query. */
export function requestedWithdrawalOf(userId: AnyColumn | SQL | number) {
  return sql<boolean>`exists (select 1 from ${withdrawals} where ${withdrawals.userId} = ${userId})`;
}

/** Whether a withdrawal of the user `userId` names was paid: an SQL expression for another feature's query. */
export function paidWithdrawalOf(userId: AnyColumn | SQL | number) {
  return sql<boolean>`exists (select 1 from ${withdrawals} where ${withdrawals.userId} = ${userId} and ${withdrawals.state} = 'paid')`;
}

/** Stores a withdrawal's risk reasons and score (the name reasons a settled payout account check adds). */
export async function setWithdrawalRisk(db: Executor, id: number, reasons: RiskReasonKey[], score: number) {
  await db.update(withdrawals).set({ riskReasons: reasons, riskScore: score }).where(eq(withdrawals.id, id));
}

/**
 * The withdrawal risk writes payout-accounts' checks make, handed to `createAccountValidations`
 * (withdrawals imports payout-accounts, so payout-accounts may not import withdrawals: docs/decisions/table-owners.md).
 */
export const withdrawalRisk = { lock: lockWithdrawal, setRisk: setWithdrawalRisk };

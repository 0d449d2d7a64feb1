import { PUSH_PATHS, parseRupees, REBATE_HOLD_DAYS_DEFAULT, SYSTEM_TASK_IDS } from '@kamai/contract';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { SETTING_DEFAULTS } from '../../server/src/platform/settings.queries';
import { callerOf, inTransaction, isUniqueViolation, localeOf, ok, Refusal, refuse, rupees } from './writes-http';

const DAY_MS = 86_400_000;
const SYSTEM_TASKS = new Set<number>(Object.values(SYSTEM_TASK_IDS));

/**
 * Everything a claim decides on, in one statement: the task, whether the user completed it, the latest
 * proof's state, the one fact its condition needs, the user and the two uplines (for the rebates).
 */
const CLAIM = {
  name: 'minimal_task_claim',
  text: `select t.id, t.active, t.deleted_at, t.starts_at, t.ends_at, t.verification, t.reward::text as reward,
      coalesce(t.titles ->> 'en_US', '') as title,
      exists (select 1 from task_completions c where c.user_id = me.id and c.task_id = t.id) as done,
      (select p.state from task_proofs p where p.user_id = me.id and p.task_id = t.id order by p.id desc limit 1)
        as proof_state,
      case t.verification -> 'condition' ->> 'type'
        when 'survey' then (select count(*) from survey_responses r where r.user_id = me.id)
        when 'intro' then (select count(*) from intro_views v where v.user_id = me.id)
        when 'withdrawals' then (select count(*) from withdrawals w where w.user_id = me.id
          and (not coalesce((t.verification -> 'condition' ->> 'paid')::boolean, false) or w.state = 'paid'))
        when 'linked_accounts' then (select count(*) from linked_accounts l where l.user_id = me.id
          and (not coalesce((t.verification -> 'condition' ->> 'online')::boolean, false) or l.status = 'online'))
        when 'income' then (select coalesce(sum(e.amount), 0) from entries e
          join accounts a on a.id = e.account_id join postings p on p.id = e.posting_id
          where a.user_id = me.id and a.kind = 'wallet' and e.amount > 0
            and p.type in ('task_reward', 'rebate', 'linked_income')
            and e.created_at > $3::timestamptz - make_interval(secs => (t.verification -> 'condition' ->> 'days')::int * 86400))
      end::text as fact,
      exists (select 1 from settings s where s.key = 'intro' and coalesce(s.value ->> 'videoUrl', '') <> '') as intro_video,
      me.role, me.returning_identity, me.deleted_at is not null as deleted,
      case when up1.deleted_at is null and up1.role = 'user' then up1.id end as level1,
      case when up2.deleted_at is null and up2.role = 'user' then up2.id end as level2,
      (select s.value from settings s where s.key = 'rebate') as rates
    from users me
    join tasks t on t.id = $2
    left join users up1 on up1.id = me.inviter_id
    left join users up2 on up2.id = up1.inviter_id
    where me.id = $1`,
};
const NEW_ACCOUNTS = {
  name: 'minimal_task_new_accounts',
  text: `insert into accounts (user_id, kind) select u, k from unnest($1::bigint[], $2::text[]) as x(u, k)
    on conflict (user_id, kind) do nothing`,
};
/** The credited user accounts (the wallet, the uplines' pending rebates), locked in id order. */
const LOCK = {
  name: 'minimal_task_lock',
  text: `select a.id, a.user_id, a.kind, a.balance::text from accounts a
    where (a.user_id, a.kind) in (select u, k from unnest($1::bigint[], $2::text[]) as x(u, k))
    order by a.id for update`,
};
/**
 * The reward posting from platform rewards to the wallet, the two rebate postings into the uplines'
 * pending rebates with their `rebates` rows (a level whose amount is 0 writes nothing), the balances,
 * the completion and its push: one statement. Nothing is written when the reward's key was posted.
 */
const WRITE = {
  name: 'minimal_task_write',
  text: `with house as (select id from accounts where user_id is null and kind = 'platform_rewards'),
    reward as (
      insert into postings (type, idempotency_key, ref)
      values ('task_reward', $1, jsonb_build_object('taskId', $2::bigint, 'taskTitle', $3::text))
      on conflict (idempotency_key) do nothing returning id
    ), levels as (
      select l.level, l.account, l.amount, l.after, l.earner, l.bps from (values
        (1, $7::bigint, $8::bigint, $9::bigint, $10::bigint, $11::int),
        (2, $12::bigint, $13::bigint, $14::bigint, $15::bigint, $16::int)) as l(level, account, amount, after, earner, bps)
      where l.amount > 0
    ), rebate as (
      insert into postings (type, idempotency_key, ref)
      select 'rebate', $1 || ':rebate:' || l.level,
        jsonb_build_object('inviteeId', $4::bigint, 'level', l.level, 'sourcePostingId', reward.id)
      from levels l cross join reward
      returning id, (ref ->> 'level')::int as level
    ), lines as (
      select reward.id as posting, 0 as o, house.id as account, -$5::bigint as amount, null::bigint as after
        from reward cross join house
      union all select reward.id, 1, $6::bigint, $5::bigint, $17::bigint from reward
      union all select rebate.id, 2 * l.level, house.id, -l.amount, null from rebate
        join levels l using (level) cross join house
      union all select rebate.id, 2 * l.level + 1, l.account, l.amount, l.after from rebate join levels l using (level)
    ), entry as (
      insert into entries (posting_id, account_id, amount, balance_after)
      select posting, account, amount, after from lines order by o
    ), balance as (
      update accounts a set balance = lines.after from lines
      where lines.after is not null and a.id = lines.account
    ), owed as (
      insert into rebates (source_posting_id, invitee_id, earner_id, level, bps, amount, available_at, accrual_posting_id)
      select reward.id, $4, l.earner, l.level, l.bps, l.amount, $18::timestamptz, rebate.id
      from rebate join levels l using (level) cross join reward
    ), completed as (
      insert into task_completions (user_id, task_id, posting_id) select $4, $2, id from reward
      returning task_id
    ), pushed as (
      insert into jobs (kind, dedupe_key, payload, run_at)
      select 'push.deliver', 'push:' || $1 || ':' || s.id, $19::jsonb || jsonb_build_object('subscriptionId', s.id), now()
      from push_subscriptions s
      where s.user_id = $4 and $5::bigint > 0 and exists (select 1 from completed)
      on conflict (dedupe_key) do nothing
    )
    select exists (select 1 from reward) as created`,
};

interface Condition {
  type: string;
  count?: number;
  amount?: string;
  qualified?: boolean;
}

function available(
  row: { active: boolean; deleted_at: Date | null; starts_at: Date | null; ends_at: Date | null },
  at: Date,
) {
  if (!row.active || row.deleted_at) return false;
  if (row.starts_at && row.starts_at > at) return false;
  return !(row.ends_at && row.ends_at <= at);
}

/** Whether the condition is met by the one fact the claim read (`fact`: a count or paise). */
function met(condition: Condition, fact: string | null, introVideo: boolean): boolean {
  const n = BigInt(fact ?? '0');
  switch (condition.type) {
    case 'register':
      return true;
    case 'survey':
      return n > 0n;
    case 'intro':
      return introVideo && n > 0n;
    case 'withdrawals':
    case 'linked_accounts':
      return n >= BigInt(condition.count ?? 1);
    case 'income':
      return n >= (parseRupees(condition.amount ?? '0') ?? 0n);
    default:
      // Invites (qualified or not) are not covered: the comparison needs tasks it covers.
      throw new Error(`minimal writes: condition ${condition.type} is not covered`);
  }
}

/** POST user/task/finish of an automatic task: the same checks, in Kamai's order, and the same rows. */
export function taskFinish(app: FastifyInstance, pool: pg.Pool) {
  app.post('/go_user/api/v1/user/task/finish', async (request, reply) => {
    const locale = localeOf(request);
    try {
      const caller = await callerOf(pool, request);
      const taskId = Number((request.body as { taskId?: unknown } | undefined)?.taskId);
      if (!Number.isSafeInteger(taskId) || taskId <= 0) throw new Refusal('task_not_found');
      const at = new Date();
      const data = await inTransaction(pool, async (client) => {
        const row = (await client.query({ ...CLAIM, values: [caller.id, taskId, at] })).rows[0];
        if (!row || row.deleted_at) throw new Refusal('task_not_found');
        if (row.done) throw new Refusal('task_already_claimed');
        if (!available(row, at)) throw new Refusal('task_not_active');
        if (row.verification.kind === 'proof') {
          throw new Refusal(row.proof_state === 'pending' ? 'task_under_review' : 'task_proof_required');
        }
        const condition = row.verification.condition as Condition;
        if (condition.type === 'intro' && !row.intro_video) throw new Refusal('task_not_active');
        if (!met(condition, row.fact, row.intro_video)) throw new Refusal('task_condition_unmet');
        if (row.role !== 'user') throw new Refusal('staff_earn_nothing');
        if (SYSTEM_TASKS.has(taskId) && row.returning_identity) throw new Refusal('task_already_claimed');
        if (row.deleted) throw new Refusal('account_deleted_final');
        const reward = BigInt(row.reward);
        const rates = { ...SETTING_DEFAULTS.rebate, ...(row.rates ?? {}) };
        const eligible = !row.returning_identity;
        const levels = [
          { earner: row.level1 === null ? null : Number(row.level1), bps: rates.level1Bps },
          { earner: row.level2 === null ? null : Number(row.level2), bps: rates.level2Bps },
        ].map((l) => ({
          ...l,
          amount: eligible && l.earner !== null ? (reward * BigInt(l.bps)) / 10_000n : 0n,
        }));
        const owners = [caller.id, ...levels.filter((l) => l.amount > 0n).map((l) => l.earner as number)];
        const kinds = ['wallet', ...levels.filter((l) => l.amount > 0n).map(() => 'rebate_pending')];
        let locked = (await client.query({ ...LOCK, values: [owners, kinds] })).rows;
        if (locked.length < owners.length) {
          await client.query({ ...NEW_ACCOUNTS, values: [owners, kinds] });
          locked = (await client.query({ ...LOCK, values: [owners, kinds] })).rows;
        }
        const find = (userId: number, kind: string) => {
          const account = locked.find((a) => Number(a.user_id) === userId && a.kind === kind);
          if (!account) throw new Error(`account ${kind} of ${userId} vanished`);
          return { id: account.id as string, balance: BigInt(account.balance) };
        };
        const wallet = find(caller.id, 'wallet');
        const rebateAccount = (l: (typeof levels)[number]) =>
          l.amount > 0n ? find(l.earner as number, 'rebate_pending') : { id: null, balance: 0n };
        const [one, two] = levels as [(typeof levels)[number], (typeof levels)[number]];
        const a1 = rebateAccount(one);
        const a2 = rebateAccount(two);
        // One upline can be both levels only in a cycle, which invites cannot make; still add them up.
        const after2 =
          a2.id !== null && a2.id === a1.id ? a1.balance + one.amount + two.amount : a2.balance + two.amount;
        const key = `task:${taskId}:user:${caller.id}`;
        const push = {
          source: 'notification',
          kind: 'reward_credited',
          params: { amount: rupees(reward), taskId },
          url: PUSH_PATHS.income,
          tag: key,
        };
        const written = await client.query({
          ...WRITE,
          values: [
            key,
            taskId,
            row.title,
            caller.id,
            reward.toString(),
            wallet.id,
            a1.id,
            one.amount.toString(),
            (a1.balance + one.amount).toString(),
            one.earner,
            one.bps,
            a2.id,
            two.amount.toString(),
            after2.toString(),
            two.earner,
            two.bps,
            (wallet.balance + reward).toString(),
            new Date(at.getTime() + (rates.holdDays ?? REBATE_HOLD_DAYS_DEFAULT) * DAY_MS),
            JSON.stringify(push),
          ],
        });
        if (!written.rows[0].created) throw new Refusal('task_already_claimed');
        return { taskId, reward: rupees(reward), balance: rupees(wallet.balance + reward) };
      });
      return ok(locale, 'task_reward_credited', data);
    } catch (error) {
      // A concurrent claim that got past the checks meets the completion's primary key.
      return refuse(reply, locale, isUniqueViolation(error) ? new Refusal('task_already_claimed') : error);
    }
  });
}

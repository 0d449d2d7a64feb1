import {
  ACCOUNT_CHECK_DEADLINE_MINUTES,
  ACCOUNT_CHECK_REFUSAL_KEYS,
  ACCOUNT_CHECK_REFUSALS,
  type AccountCheckCause,
  type AccountCheckRefusal,
  type AccountVerification,
  nameKey,
  type PayoutAccountType,
  RISK_REASON_KEYS,
  RISK_SCORE_MAX,
  RISK_SIGNALS,
  type RiskReasonKey,
  type RiskSignal,
  razorpayxValidationEntity,
} from '@kamai/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../platform/errors';
import { enqueueJob, type JobRow } from '../../platform/jobs.queries';
import { getSetting, settingOver } from '../../platform/settings.queries';
import { post } from '../wallet';
import {
  type AccountValidator,
  reportOf,
  type ValidationAnswer,
  type ValidationReport,
} from './account-validation.gateway';
import { nameMatchOf } from './account-validation.match';
import * as q from './account-validation.queries';

export const VALIDATION_START_JOB = 'account-validation.start';
export const VALIDATION_CHECK_JOB = 'account-validation.check';
const DAY_MS = 24 * 3600 * 1000;

export interface AccountFields {
  accountType: PayoutAccountType;
  ifsc: string;
  accountNo: string;
  accountName: string;
}

export interface AccountValidationsOptions {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  /** The gateway new checks go through (RazorpayX when it pays, else the sandbox). */
  validator: AccountValidator;
  /**
   * No gateway check is available (`RAZORPAYX_ACCOUNT_VALIDATION=off`): every new number goes to the
   * operators' queue at once, nothing is sent and no fee is posted.
   */
  operatorsOnly?: boolean;
  /** Every gateway a started check may need to be fetched from, by name. */
  validators: Partial<Record<string, AccountValidator>>;
  /** A started RazorpayX check not reported this long after is fetched (then again, backing off). */
  checkAfterMs: number;
  /** One call's limit. */
  timeoutMs: number;
  /** Nudges this process's job runner after new work was committed. */
  wakeJobs: () => void;
  /** The identity ledger's keyed hash (HMAC under the identity-hash key), for `number_hash`. */
  hashOf: (text: string) => Promise<string>;
  /**
   * Called in the settling transaction: approved withdrawals to this number waited for the check
   * (their dispatch is queued again; the dispatch then pays, or fails one the bank refused).
   */
  onSettled?: (tx: Tx, validation: q.ValidationRow) => Promise<void>;
  /** The withdrawal risk writes, which withdrawals owns (`withdrawalRisk` of its index). */
  withdrawalRisk: WithdrawalRiskWrites;
}

/** A withdrawal as its risk is scored: who, to which number under which name, its risk so far. */
export interface ScoredWithdrawal {
  id: number;
  userId: number;
  state: string;
  accountType: PayoutAccountType;
  ifsc: string;
  accountNo: string;
  accountName: string;
  riskScore: number;
  riskReasons: RiskReasonKey[];
}

/**
 * What a settled check writes of a withdrawal's risk, handed in by the caller: withdrawals owns the
 * table and imports this feature, so this feature may not import withdrawals
 * (docs/decisions/table-owners.md).
 */
export interface WithdrawalRiskWrites {
  /** The withdrawal, locked FOR UPDATE in the transaction. */
  lock(tx: Tx, id: number): Promise<ScoredWithdrawal | undefined>;
  /** Stores its risk reasons and score. */
  setRisk(tx: Tx, id: number, reasons: RiskReasonKey[], score: number): Promise<void>;
}

/** What the owner sees of a check (an operator's refusal by its reason's catalogue key). */
export function verificationOf(row: q.PayeeCheck | undefined): AccountVerification | null {
  if (!row) return null;
  const none = { registeredName: null, reason: null, reasonKey: null, verifiedBy: null };
  if (row.status === 'pending') return { ...none, state: row.reviewState === 'queued' ? 'review' : 'verifying' };
  if (row.status === 'completed' && row.accountStatus === 'active') {
    const byOperator = row.reviewState === 'approved';
    return {
      ...none,
      state: 'verified',
      registeredName: byOperator ? null : row.registeredName,
      verifiedBy: byOperator ? 'operator' : 'bank',
    };
  }
  const refusal = (ACCOUNT_CHECK_REFUSALS as readonly string[]).includes(row.refusal ?? '')
    ? ACCOUNT_CHECK_REFUSAL_KEYS[row.refusal as AccountCheckRefusal]
    : null;
  return { ...none, state: 'unverified', reason: refusal ? null : row.reason, reasonKey: refusal };
}

/** Whether money may go to a number: `none` (never checked: accounts saved before checks began). */
export type PayeeVerdict = 'none' | 'pending' | 'active' | 'blocked';
export function verdictOf(row: q.ValidationRow | undefined): PayeeVerdict {
  if (!row) return 'none';
  if (row.status === 'pending') return 'pending';
  return row.status === 'completed' && row.accountStatus === 'active' ? 'active' : 'blocked';
}

/**
 * Payout account checks (docs/decisions/payout-account-validation.md): started when an account is
 * bound or its number changes, settled by the gateway's answer, its webhook or a fetch (each applied
 * once), charged as a platform expense, and used to score withdrawals' names and to hold their payouts.
 */
export function createAccountValidations(options: AccountValidationsOptions) {
  const { db, now, log, validator } = options;
  const startJob = (v: q.ValidationRow) => ({
    kind: VALIDATION_START_JOB,
    dedupeKey: `account-validation:start:${v.id}:${v.attempt}`,
    payload: { validationId: v.id, attempt: v.attempt },
    runAt: now(),
  });
  const checkJob = (v: q.ValidationRow) => ({
    kind: VALIDATION_CHECK_JOB,
    dedupeKey: `account-validation:check:${v.id}:${v.attempt}`,
    payload: { validationId: v.id, attempt: v.attempt },
    runAt: new Date(now().getTime() + options.checkAfterMs),
  });

  /** The number's keyed hash (`number_hash`), taken before the bind's transaction: the key is read outside it. */
  function numberHashOf(account: Omit<AccountFields, 'accountName'>) {
    return options.hashOf(q.numberHashInput(account));
  }

  /**
   * In the bind's or edit's transaction, under the owner's lock (so parallel binds count one after
   * another): the owner's own check of the number, started unless it exists (a failed one is started
   * again). Another user's check of the same number is never reused: its result, the bank's name, is
   * that user's. A number the user has not looked up before counts toward the daily limit.
   */
  async function lookup(tx: Tx, userId: number, account: AccountFields, numberHash: string): Promise<number> {
    const settings = await getSetting(tx, 'accountValidation');
    const fingerprint = q.fingerprintOf(account);
    const at = now();
    const created = await q.insertValidation(tx, {
      fingerprint,
      numberHash,
      accountType: account.accountType,
      ifsc: account.ifsc,
      accountNo: account.accountNo,
      accountName: account.accountName,
      requestedBy: userId,
      gateway: validator.gateway,
      createdAt: at,
      updatedAt: at,
    });
    let row = await q.lockByFingerprint(tx, userId, fingerprint);
    if (!row) throw new Error(`account validation ${fingerprint} vanished`);
    if (row.numberHash !== numberHash) row = await q.updateValidation(tx, row.id, { numberHash });
    if (!(await q.hasLookup(tx, userId, row.id))) {
      const used = await q.lookupsSince(tx, userId, new Date(at.getTime() - DAY_MS));
      if (used >= settings.dailyLimit)
        throw new AppError('payout_account_validation_limit', { max: settings.dailyLimit });
      await q.insertLookup(tx, userId, row.id, at);
    }
    if (created) {
      if (options.operatorsOnly) await queue(tx, row, 'disabled', null);
      else await enqueueJob(tx, startJob(row));
    } else if (row.status === 'failed') {
      row = await q.updateValidation(tx, row.id, {
        status: 'pending',
        attempt: row.attempt + 1,
        gateway: validator.gateway,
        accountName: account.accountName,
        gatewayValidationId: null,
        fundAccountId: null,
        reason: null,
        evidence: null,
        updatedAt: at,
      });
      if (options.operatorsOnly) await queue(tx, row, 'disabled', null);
      else await enqueueJob(tx, startJob(row));
    }
    return row.id;
  }

  /**
   * Puts a pending check in the operators' queue (docs/decisions/account-checks-by-operators.md): it
   * stays pending (payouts to it wait), the owner reads "being checked by our team", and an operator
   * approves or refuses it. A gateway answer that still comes settles it as usual.
   */
  async function queue(tx: Tx, v: q.ValidationRow, cause: AccountCheckCause, note: string | null) {
    if (v.status !== 'pending' || v.reviewState === 'queued') return v;
    const at = now();
    const row = await q.updateValidation(tx, v.id, {
      reviewState: 'queued',
      reviewCause: cause,
      reviewQueuedAt: at,
      firstApproverId: null,
      reason: note,
      updatedAt: at,
    });
    log.warn({ validationId: v.id, cause }, 'account check waits for an operator');
    return row;
  }

  /**
   * Periodic: every check still under way `ACCOUNT_CHECK_DEADLINE_MINUTES` after it started (or was
   * started again) goes to the operators' queue, so no account says "Verifying" for ever. Answers how
   * many it moved.
   */
  async function queueOverdue() {
    const cutoff = new Date(now().getTime() - ACCOUNT_CHECK_DEADLINE_MINUTES * 60_000);
    const at = now();
    const moved = await q.queueOverdueChecks(db, cutoff, at);
    if (moved.length > 0) {
      log.warn({ validationIds: moved.map((m) => m.id) }, 'account checks overdue: waiting for an operator');
    }
    return moved.length;
  }

  /** The fee of one started check, once per attempt: platform revenue → platform expenses. */
  async function postFee(tx: Tx, v: q.ValidationRow) {
    const { feePaise } = await getSetting(tx, 'accountValidation');
    if (feePaise <= 0) return;
    const fee = BigInt(feePaise);
    await post(tx, {
      type: 'account_validation_fee',
      idempotencyKey: `account-validation:${v.id}:${v.attempt}:fee`,
      entries: [
        { account: { kind: 'platform_expenses' }, amount: fee },
        { account: { kind: 'platform_revenue' }, amount: -fee },
      ],
    });
  }

  /**
   * Settles a pending check with a report (a replay, or a report after it settled, changes nothing),
   * then scores the pending withdrawals to the number and lets approved ones go on.
   */
  async function apply(tx: Tx, v: q.ValidationRow, report: ValidationReport, evidence: Record<string, unknown>) {
    if (v.status !== 'pending' || report.status === 'pending') return false;
    if (report.status === 'unavailable') {
      await q.updateValidation(tx, v.id, { evidence, updatedAt: now() });
      await queue(tx, await q.lockValidation(tx, v.id).then((r) => r ?? v), 'unavailable', report.reason);
      return false;
    }
    const at = now();
    // The gateway answered after all: the operators' queue lets it go (an operator's decision came first otherwise).
    const review = v.reviewState === 'queued' ? { reviewState: null, firstApproverId: null } : {};
    const settled =
      report.status === 'completed'
        ? await q.updateValidation(tx, v.id, {
            status: 'completed',
            accountStatus: report.accountStatus,
            registeredName: report.registeredName,
            registeredNameKey: report.registeredName ? nameKey(report.registeredName) : null,
            nameMatchScore: report.nameMatchScore,
            reason:
              report.accountStatus === 'active' ? null : (report.details ?? 'The bank says the account is invalid'),
            evidence,
            updatedAt: at,
            completedAt: at,
            ...review,
          })
        : await q.updateValidation(tx, v.id, {
            status: 'failed',
            reason: report.reason,
            evidence,
            updatedAt: at,
            completedAt: at,
            ...review,
          });
    await afterSettled(tx, settled);
    return true;
  }

  /** An operator's decision settles a queued check like a gateway's report (approve: active, no bank name). */
  async function settleByOperator(
    tx: Tx,
    v: q.ValidationRow,
    decision:
      | { approve: true; by: number }
      | { approve: false; by: number; refusal: AccountCheckRefusal; text: string },
  ) {
    const at = now();
    const settled = await q.updateValidation(tx, v.id, {
      status: 'completed',
      accountStatus: decision.approve ? 'active' : 'invalid',
      registeredName: null,
      registeredNameKey: null,
      reason: decision.approve ? null : decision.text,
      refusal: decision.approve ? null : decision.refusal,
      reviewState: decision.approve ? 'approved' : 'refused',
      reviewedBy: decision.by,
      updatedAt: at,
      completedAt: at,
    });
    await afterSettled(tx, settled);
    return settled;
  }

  /** What follows a settled check: the pending withdrawals' names scored, approved ones let go (or failed). */
  async function afterSettled(tx: Tx, settled: q.ValidationRow) {
    for (const w of await q.withdrawalsTo(tx, settled, ['pending'])) await scoreWithdrawal(tx, w, settled);
    await options.onSettled?.(tx, settled);
    log.info(
      { validationId: settled.id, status: settled.status, accountStatus: settled.accountStatus },
      'account validation settled',
    );
  }

  /** Records what the gateway answered to a start (its ids, the fee) and applies its report. */
  async function record(tx: Tx, v: q.ValidationRow, answer: ValidationAnswer) {
    let row = v;
    if (answer.gatewayValidationId && row.gatewayValidationId !== answer.gatewayValidationId) {
      row = await q.updateValidation(tx, row.id, {
        gatewayValidationId: answer.gatewayValidationId,
        fundAccountId: answer.fundAccountId ?? row.fundAccountId,
        updatedAt: now(),
      });
    }
    if (row.gatewayValidationId) await postFee(tx, row);
    await apply(tx, row, answer.report, answer.evidence);
    return row;
  }

  /** Job: starts the check at the gateway (once per attempt), then waits for its report or fetches it. */
  async function runStart(job: JobRow) {
    const id = Number(job.payload.validationId);
    const attempt = Number(job.payload.attempt);
    const v = await q.findValidation(db, id);
    if (!v || v.attempt !== attempt || v.status !== 'pending' || v.gatewayValidationId) return;
    const gateway = options.validators[v.gateway] ?? validator;
    const answer = await gateway.start(
      {
        validationId: v.id,
        attempt: v.attempt,
        userId: v.requestedBy,
        accountType: v.accountType,
        ifsc: v.ifsc,
        accountNo: v.accountNo,
        accountName: v.accountName,
      },
      AbortSignal.timeout(options.timeoutMs),
    );
    await db.transaction(async (tx) => {
      const locked = await q.lockValidation(tx, id);
      if (!locked || locked.attempt !== attempt) return;
      const row = await record(tx, locked, answer);
      if ((await q.findValidation(tx, id))?.status === 'pending' && row.gatewayValidationId) {
        await enqueueJob(tx, checkJob(row));
      }
    });
  }

  /** Job: fetches a started check that has not been reported; still under way: retried, backing off. */
  async function runCheck(job: JobRow) {
    const id = Number(job.payload.validationId);
    const v = await q.findValidation(db, id);
    if (!v || v.attempt !== Number(job.payload.attempt) || v.status !== 'pending' || !v.gatewayValidationId) return;
    const gateway = options.validators[v.gateway];
    if (!gateway)
      throw new Error(`account validation ${id} was made through ${v.gateway}, which is not configured here`);
    const answer = await gateway.fetch(v.gatewayValidationId, AbortSignal.timeout(options.timeoutMs));
    const applied = await db.transaction(async (tx) => {
      const locked = await q.lockValidation(tx, id);
      if (!locked || locked.gatewayValidationId !== v.gatewayValidationId) return true;
      await apply(tx, locked, answer.report, answer.evidence);
      return answer.report.status !== 'pending';
    });
    if (!applied) throw new Error(`account validation ${id} (${v.gatewayValidationId}) is still under way`);
  }

  /**
   * A `fund_account.validation.*` webhook (signature already checked by the route): the entity's own
   * status settles the check it names, by its id, or (a lost create answer) by the id in its notes.
   */
  async function webhook(event: string, entityJson: unknown, requestLog: FastifyBaseLogger) {
    const parsed = razorpayxValidationEntity.safeParse(entityJson);
    if (!parsed.success) {
      requestLog.warn({ event, ignored: 'unexpected shape' }, 'razorpayx webhook ignored');
      return { applied: false };
    }
    const entity = parsed.data;
    const notes = entity.notes && !Array.isArray(entity.notes) ? entity.notes : {};
    const ours = /^\d{1,15}$/.test(String(notes.kamai_validation_id ?? '')) ? Number(notes.kamai_validation_id) : null;
    const known = (await q.findByGatewayId(db, entity.id))?.id ?? ours;
    if (known === null) {
      requestLog.warn(
        { event, validationId: entity.id, ignored: 'a validation Kamai did not make' },
        'razorpayx webhook ignored',
      );
      return { applied: false };
    }
    const result = await db.transaction(async (tx) => {
      const v = await q.lockValidation(tx, known);
      if (v?.gateway !== 'razorpayx') return 'a validation Kamai did not make';
      if (v.gatewayValidationId && v.gatewayValidationId !== entity.id) return 'another validation of this account';
      if (!v.gatewayValidationId && String(notes.kamai_attempt ?? v.attempt) !== String(v.attempt)) {
        return 'an earlier attempt';
      }
      const before = v.status;
      await record(tx, v, {
        gatewayValidationId: entity.id,
        fundAccountId: entity.fund_account?.id ?? null,
        report: reportOf(entity),
        evidence: { event, ...entity },
      });
      return before === 'pending' && entity.status !== 'created' ? 'applied' : 'unchanged';
    });
    if (result !== 'applied' && result !== 'unchanged') {
      requestLog.warn({ event, validationId: entity.id, ignored: result }, 'razorpayx webhook ignored');
      return { applied: false };
    }
    requestLog.info({ event, validationId: entity.id, result }, 'razorpayx validation webhook');
    return { applied: result === 'applied' };
  }

  /**
   * Adds the name reasons to a pending withdrawal once its number is verified: the bank's name far
   * from the names the user gave (this account's, and their other accounts' typed and bank names) is
   * `risk_bank_name_mismatch`; the same bank name on another user's account, or the same number on
   * another user's check (by its keyed hash, also after that user deleted the account), joins
   * `risk_shared_payout_account`. Each reason is added once, its weight with it.
   */
  /**
   * The bank-name signals a withdrawal's verified number sets off, each with its weight (those weighed
   * 0 left out): the name match against the names the user gave, and the number or the bank's name on
   * another user. One read (`nameSignalFacts`); nothing for a check that is not a verified, active one.
   */
  async function nameSignals(
    db2: Db | Tx,
    w: { userId: number; accountName: string },
    v: q.ValidationRow,
  ): Promise<{ signal: RiskSignal; weight: number }[]> {
    if (v.status !== 'completed' || v.accountStatus !== 'active' || !v.registeredName || !v.registeredNameKey)
      return [];
    const facts = await q.nameSignalFacts(db2, w.userId, v);
    const { nameMatchMin } = settingOver('accountValidation', facts.validationSetting);
    const risk = settingOver('risk', facts.riskSetting);
    const fired: RiskSignal[] = [];
    if (nameMatchOf(w, v, facts.others) < nameMatchMin) fired.push('bank_name_mismatch');
    if (facts.sameNumber || facts.sameName) fired.push('shared_payout_account');
    return fired.filter((s) => risk.weights[s] > 0).map((signal) => ({ signal, weight: risk.weights[signal] }));
  }

  async function scoreWithdrawal(
    tx: Tx,
    w: { id: number; userId: number; accountName: string; riskScore: number; riskReasons: RiskReasonKey[] },
    v: q.ValidationRow,
  ) {
    const added = (await nameSignals(tx, w, v)).filter(
      ({ signal }) => !w.riskReasons.includes(RISK_REASON_KEYS[signal]),
    );
    if (added.length === 0) return;
    const reasons = new Set<RiskReasonKey>([...w.riskReasons, ...added.map(({ signal }) => RISK_REASON_KEYS[signal])]);
    const ordered = RISK_SIGNALS.map((s) => RISK_REASON_KEYS[s]).filter((key) => reasons.has(key));
    const score = Math.min(RISK_SCORE_MAX, w.riskScore + added.reduce((sum, { weight }) => sum + weight, 0));
    await options.withdrawalRisk.setRisk(tx, w.id, ordered, score);
  }

  /** A new withdrawal (its own statement committed): scored now if its number is already verified. */
  async function scoreNewWithdrawal(withdrawalId: number) {
    await db.transaction(async (tx) => {
      const w = await options.withdrawalRisk.lock(tx, withdrawalId);
      if (w?.state !== 'pending') return;
      const v = await payeeOf(tx, w);
      if (v) await scoreWithdrawal(tx, w, v);
    });
  }

  /**
   * The signals a withdrawal about to be requested will carry from its number's check, read before
   * `withdraw_request` so that the common answer (none) costs no second transaction: the caller adds
   * them to the new row in one statement guarded by the account it read (withdraw/add, benchmark 3).
   * `check` is the one the account points at; the owner's check of the number is read when it is not.
   */
  async function newWithdrawalSignals(
    userId: number,
    account: AccountFields,
    check: q.ValidationRow | null,
  ): Promise<{ signal: RiskSignal; weight: number }[]> {
    const owned = check?.requestedBy === userId && check.fingerprint === q.fingerprintOf(account);
    const v = owned ? check : await payeeOf(db, { userId, ...account });
    return v ? nameSignals(db, { userId, accountName: account.accountName }, v) : [];
  }

  /** The withdrawing user's own check of the number a withdrawal pays (by its frozen copy of the account). */
  async function payeeOf(
    db2: Db | Tx,
    account: { userId: number; accountType: PayoutAccountType; ifsc: string; accountNo: string },
  ) {
    return (await q.validationsByFingerprints(db2, [account])).get(q.ownedFingerprintOf(account));
  }

  return {
    numberHashOf,
    lookup,
    queueOverdue,
    settleByOperator,
    webhook,
    scoreNewWithdrawal,
    newWithdrawalSignals,
    payeeOf,
    jobHandlers: { [VALIDATION_START_JOB]: runStart, [VALIDATION_CHECK_JOB]: runCheck },
  };
}

export type AccountValidations = ReturnType<typeof createAccountValidations>;

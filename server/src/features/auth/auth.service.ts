import {
  canonicalIdentity,
  foldUsername,
  LOGIN_ACCOUNT_LOCK_MINUTES,
  LOGIN_ADDRESS_LOCK_MINUTES,
  LOGIN_FAILURES_PER_ACCOUNT,
  LOGIN_FAILURES_PER_ACCOUNT_ADDRESS,
  normalizeUsername,
  SESSION_TTL_DAYS,
  SYSTEM_TASK_IDS,
} from '@kamai/contract';
import type { Db, Executor } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { type AuthUser, hashToken, newToken } from '../../platform/auth';
import type { ClientInfo } from '../../platform/client-info';
import { refuseCommonPassword } from '../../platform/common-passwords';
import { AppError, isUniqueViolation } from '../../platform/errors';
import { notify } from '../../platform/notifications.queries';
import { hashPassword, verifyPassword } from '../../platform/password';
import type { RateLimit } from '../../platform/rate-limit';
import * as q from '../../platform/sessions.queries';
import { recordClient } from '../fraud';
import type { OtpService } from '../otp';
import { completeSystemTask } from '../tasks';
import * as users from '../users';
import { insertWallet } from '../wallet';
import * as attempts from './login-attempts.queries';

export interface AuthServiceDeps {
  db: Db;
  config: {
    INVITE_CODE_REQUIRED: boolean;
    AUTH_CODE_FAILURE_DELAY_MS: number;
    IDENTITY_HASH_SECRET?: string;
    IDENTITY_HASH_SECRET_PREVIOUS?: readonly string[];
  };
  otp: OtpService;
  /** Per-address limits (Redis when REDIS_URL is set). */
  limits: {
    /** Failed logins from one address, any accounts (LOGIN_FAILURES_PER_IP). */
    loginsPerIp: RateLimit;
    registrationsPerIp: RateLimit;
    resetsPerIp: RateLimit;
  };
  now?: () => Date;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const LIMITS: attempts.AttemptLimits = {
  perPair: LOGIN_FAILURES_PER_ACCOUNT_ADDRESS,
  pairWindowMs: LOGIN_ADDRESS_LOCK_MINUTES * MINUTE_MS,
  perAccount: LOGIN_FAILURES_PER_ACCOUNT,
  accountWindowMs: LOGIN_ACCOUNT_LOCK_MINUTES * MINUTE_MS,
};

type Refusal = { ok: false; key: 'invite_code_not_found' | 'username_taken' | 'username_does_not_exist' };

/** The refusals of a one-time code that are answered late (`AUTH_CODE_FAILURE_DELAY_MS`). */
const CODE_REFUSALS = new Set(['verification_code_not_found', 'verification_code_incorrect']);

async function takeOrRefuse(limit: RateLimit, ip: string) {
  const taken = await limit.take(ip);
  if (!taken.ok) throw new AppError('too_many_requests', { seconds: taken.retryAfterSeconds });
}

/**
 * Registration, login and passwords. The order of the checks is the defence (docs/decisions/login-throttling.md): cheap
 * checks (address limits, the one-time code, the name, the invite code) come before any password
 * hash, so bogus requests cost no hashing; a name's existence is told only to whoever proved the code
 * for it; a login attempt is counted before its password is checked.
 */
export function createAuthService(deps: AuthServiceDeps) {
  const { db, config, limits } = deps;
  const now = deps.now ?? (() => new Date());
  const identities = users.createIdentityLedger(db, config.IDENTITY_HASH_SECRET, config.IDENTITY_HASH_SECRET_PREVIOUS);

  async function startSession(tx: Executor, userId: number): Promise<string> {
    const token = newToken();
    await q.insertSession(tx, {
      tokenHash: hashToken(token),
      userId,
      expiresAt: new Date(now().getTime() + SESSION_TTL_DAYS * DAY_MS),
    });
    return token;
  }

  /**
   * Audit row and notification of a new password, in the change's transaction
   * (docs/decisions/passwords-and-sessions.md).
   */
  async function recordPasswordChange(
    tx: Executor,
    input: { userId: number; actorId: number; action: string; requestId?: string; after: Record<string, unknown> },
  ) {
    const auditId = await writeAudit(tx, {
      actorId: input.actorId,
      action: input.action,
      target: `user:${input.userId}`,
      after: input.after,
      requestId: input.requestId,
    });
    await notify(tx, {
      userId: input.userId,
      kind: 'password_changed',
      params: {},
      dedupeKey: `password:${input.userId}:${auditId}`,
    });
  }

  async function register(
    input: {
      username: string;
      password: string;
      verifyCode: string;
      inviteCode: string;
      ip: string;
    },
    client: ClientInfo,
  ) {
    const inviteCode = input.inviteCode.toUpperCase();
    if (config.INVITE_CODE_REQUIRED && !inviteCode) {
      throw new AppError('enter_invite_code', { fields: { inviteCode: 'enter_invite_code' } });
    }
    refuseCommonPassword(input.password);
    await takeOrRefuse(limits.registrationsPerIp, input.ip);
    await deps.otp.precheck(input.username);
    // The person behind the name (docs/decisions/canonical-identity.md): `x.sam+1@gmail.com` is
    // `xsam@gmail.com`, one live account, one entry in the identity ledger.
    const identity = canonicalIdentity(input.username);
    // 1. The code first (a wrong one answers alike for taken and free names), then the invite code
    //    and the name; the code is used only when all hold.
    const checked = await db.transaction(async (tx) => {
      const code = await deps.otp.verify(tx, input.username, input.verifyCode);
      if (!code.ok) return code;
      const inviter = inviteCode ? await users.findUserByInviteCode(tx, inviteCode) : undefined;
      if (inviteCode && !inviter) return { ok: false, key: 'invite_code_not_found' } satisfies Refusal;
      if (await users.findUserByIdentity(tx, input.username, identity)) {
        return { ok: false, key: 'username_taken' } satisfies Refusal;
      }
      await deps.otp.use(tx, code.id);
      // A staff member's code is a valid code (a fresh install's only one is the first admin's) but
      // makes no inviter: staff have no invitees and earn nothing (docs/decisions/rebate-hold.md).
      const inviterId = inviter && inviter.role === 'user' ? inviter.id : null;
      return { ok: true as const, codeId: code.id, inviterId };
    });
    if (!checked.ok) throw new AppError(checked.key, 'data' in checked ? checked.data : {});
    // 2. Only now the hash, on the sign-up pool; if it is full, the code is given back for a retry.
    const passwordHash = await hashPassword(input.password, 'signup').catch(async (error: unknown) => {
      await deps.otp.release(checked.codeId);
      throw error;
    });
    // 3. The account.
    const identityHash = await identities.hashesOf(identity);
    // Identities deleted before the canonical rule are in the ledger under the name as typed.
    const typedHash = identity === input.username ? undefined : await identities.hashesOf(input.username);
    const result = await db
      .transaction(async (tx) => {
        // Two spellings of one identity registering at once: the second sees the first's account.
        await users.lockIdentity(tx, identity);
        if (await users.findUserByIdentity(tx, input.username, identity)) {
          return { ok: false, key: 'username_taken' } satisfies Refusal;
        }
        // A phone or e-mail registered before (then deleted) makes a working account, but no new
        // friend for the inviter and no first-time rewards (docs/decisions/canonical-identity.md).
        const seenCanonical = await identities.record(tx, identityHash);
        const seenTyped = typedHash ? await identities.record(tx, typedHash) : false;
        const returningIdentity = seenCanonical || seenTyped;
        const user = await users.insertUser(tx, {
          username: input.username,
          canonicalIdentity: identity,
          passwordHash,
          inviteCode: await users.uniqueInviteCode(tx),
          inviterId: checked.inviterId,
          returningIdentity,
        });
        await insertWallet(tx, user.id);
        await recordClient(tx, user.id, 'register', client);
        // Registering finishes task 2 (docs/design.md "Product rules"); its reward pays the inviter's rebates too.
        await completeSystemTask(tx, user.id, SYSTEM_TASK_IDS.register, now());
        return { ok: true as const, token: await startSession(tx, user.id) };
      })
      .catch((error: unknown) => {
        // Two registrations of one username at once: the loser sees the same answer as a later one.
        if (isUniqueViolation(error)) return { ok: false, key: 'username_taken' } satisfies Refusal;
        throw error;
      });
    if (!result.ok) throw new AppError(result.key);
    return { token: result.token };
  }

  async function lockedFor(username: string, address: string, windowMs: number) {
    const start = await attempts.windowStartOf(db, username, address);
    const left = start ? start.getTime() + windowMs - now().getTime() : windowMs;
    return Math.max(1, Math.ceil(left / MINUTE_MS));
  }

  async function login(input: { username: string; password: string; ip: string }, client: ClientInfo) {
    const username = normalizeUsername(input.username) ?? foldUsername(input.username).toLowerCase();
    // Every attempt is reserved before its password is checked, per address and per (account,
    // address) and per account: however many arrive at once, no more are checked than the limits.
    const fromIp = await limits.loginsPerIp.take(input.ip);
    if (!fromIp.ok) throw new AppError('login_locked', { minutes: Math.ceil(fromIp.retryAfterSeconds / 60) });
    const reserved = await attempts.reserveAttempt(db, { username, address: input.ip, now: now(), limits: LIMITS });
    if (reserved !== 'ok') {
      await limits.loginsPerIp.giveBack(input.ip);
      const minutes =
        reserved === 'pair'
          ? await lockedFor(username, input.ip, LIMITS.pairWindowMs)
          : await lockedFor(username, attempts.ANY_ADDRESS, LIMITS.accountWindowMs);
      throw new AppError('login_locked', { minutes });
    }
    const user = await users.findUserByUsername(db, username);
    // Unknown names are checked against a throwaway hash and counted alike: no difference to see.
    // A deleted account never logs in again, whatever its row holds (docs/decisions/account-deletion.md): it is checked
    // like an unknown name.
    const live = user?.deletedAt ? undefined : user;
    const ok = await verifyPassword(live?.passwordHash, input.password);
    if (!live || !ok) throw new AppError('incorrect_username_or_password');
    await Promise.all([attempts.settleSuccess(db, username, input.ip), limits.loginsPerIp.giveBack(input.ip)]);
    const token = await startSession(db, live.id);
    await recordClient(db, live.id, 'login', client);
    return { token };
  }

  async function resetPassword(input: {
    username: string;
    verifyCode: string;
    password: string;
    ip: string;
    requestId?: string;
  }) {
    refuseCommonPassword(input.password);
    await takeOrRefuse(limits.resetsPerIp, input.ip);
    await deps.otp.precheck(input.username);
    // The code first: "username does not exist" only for whoever proved the code for that name.
    const checked = await db.transaction(async (tx) => {
      const code = await deps.otp.verify(tx, input.username, input.verifyCode);
      if (!code.ok) return code;
      const user = await users.findUserByUsername(tx, input.username);
      if (!user) return { ok: false, key: 'username_does_not_exist' } satisfies Refusal;
      await deps.otp.use(tx, code.id);
      return { ok: true as const, codeId: code.id, userId: user.id };
    });
    if (!checked.ok) throw new AppError(checked.key, 'data' in checked ? checked.data : {});
    const passwordHash = await hashPassword(input.password, 'signup').catch(async (error: unknown) => {
      await deps.otp.release(checked.codeId);
      throw error;
    });
    await db.transaction(async (tx) => {
      await users.updatePassword(tx, checked.userId, passwordHash);
      const sessionsEnded = await q.deleteUserSessions(tx, checked.userId);
      await attempts.clearAttempts(tx, input.username);
      await recordPasswordChange(tx, {
        userId: checked.userId,
        actorId: checked.userId,
        action: 'user.resetpass',
        requestId: input.requestId,
        after: { by: 'code', sessionsEnded },
      });
    });
    return null;
  }

  async function changePassword(
    caller: AuthUser & { requestId?: string },
    input: { oldPassword: string; password: string },
  ) {
    const user = await users.findUserById(db, caller.id);
    if (!user) throw new AppError('unauthorized');
    refuseCommonPassword(input.password);
    if (!(await verifyPassword(user.passwordHash, input.oldPassword))) {
      throw new AppError('incorrect_old_password', { fields: { oldPassword: 'incorrect_old_password' } });
    }
    const passwordHash = await hashPassword(input.password);
    await db.transaction(async (tx) => {
      await users.updatePassword(tx, user.id, passwordHash);
      const sessionsEnded = await q.deleteUserSessions(tx, user.id, caller.sessionHash);
      await recordPasswordChange(tx, {
        userId: user.id,
        actorId: user.id,
        action: 'user.password',
        requestId: caller.requestId,
        after: { sessionsEnded },
      });
    });
    return null;
  }

  async function logout(caller: AuthUser) {
    await q.deleteSession(db, caller.sessionHash);
    return null;
  }

  function resolveSession(tokenHash: string) {
    return q.findLiveSession(db, tokenHash, now());
  }

  /** Deletes login counters whose windows ended (the jobs loop, hourly). */
  async function sweepLoginAttempts() {
    await attempts.sweepAttempts(db, new Date(now().getTime() - LIMITS.accountWindowMs));
  }

  /**
   * A wrong or missing code is answered after the configured delay: a timer, no CPU. Many connections
   * of made-up codes then cost the event loop one cheap refusal per connection per delay instead of as
   * many as it can answer, and real logins keep their place on it (benchmark 5's register flood).
   */
  /**
   * Between half and one and a half times the setting, at random. With one fixed delay, a flood's
   * connections were all answered in the same millisecond and all sent their next try together: a
   * burst of the whole flood once a second, in front of which a real login waited (benchmark 5). Spread
   * out, the same tries arrive evenly; the average delay is the setting.
   */
  function refusalDelay(base: number): number {
    return Math.round(base * (0.5 + Math.random()));
  }

  function slowingCodeRefusals<A extends unknown[], R>(work: (...args: A) => Promise<R>) {
    return async (...args: A): Promise<R> => {
      try {
        return await work(...args);
      } catch (error) {
        if (error instanceof AppError && CODE_REFUSALS.has(error.key) && config.AUTH_CODE_FAILURE_DELAY_MS > 0) {
          error.delayedMs = refusalDelay(config.AUTH_CODE_FAILURE_DELAY_MS);
          await new Promise((resolve) => setTimeout(resolve, error.delayedMs));
        }
        throw error;
      }
    };
  }

  return {
    register: slowingCodeRefusals(register),
    login,
    resetPassword: slowingCodeRefusals(resetPassword),
    changePassword,
    logout,
    resolveSession,
    sweepLoginAttempts,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

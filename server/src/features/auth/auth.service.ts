import { normalizeUsername, SESSION_TTL_DAYS, SYSTEM_TASK_IDS } from '@kamai/contract';
import type { Db, Executor } from '../../db/client';
import { type AuthUser, hashToken, newToken } from '../../platform/auth';
import type { Config } from '../../platform/config';
import { AppError, isUniqueViolation } from '../../platform/errors';
import { hashPassword, verifyPassword } from '../../platform/password';
import type { RateCounters } from '../../platform/rate-limit';
import * as q from '../../platform/sessions.queries';
import type { OtpService } from '../otp';
import { completeSystemTask } from '../tasks';
import * as users from '../users';
import { insertWallet } from '../wallet';

export interface AuthServiceDeps {
  db: Db;
  config: Config;
  otp: OtpService;
  counters: RateCounters;
  now?: () => Date;
}

const DAY_MS = 86_400_000;

export function createAuthService(deps: AuthServiceDeps) {
  const { db, config } = deps;
  const now = deps.now ?? (() => new Date());
  const lockMs = config.LOGIN_LOCK_MINUTES * 60_000;

  async function startSession(tx: Executor, userId: number): Promise<string> {
    const token = newToken();
    await q.insertSession(tx, {
      tokenHash: hashToken(token),
      userId,
      expiresAt: new Date(now().getTime() + SESSION_TTL_DAYS * DAY_MS),
    });
    return token;
  }

  async function register(input: { username: string; password: string; verifyCode: string; inviteCode: string }) {
    const inviteCode = input.inviteCode.toUpperCase();
    if (config.INVITE_CODE_REQUIRED && !inviteCode) {
      throw new AppError('enter_invite_code', { fields: { inviteCode: 'enter_invite_code' } });
    }
    const passwordHash = await hashPassword(input.password);
    const result = await db
      .transaction(async (tx) => {
        const inviter = inviteCode ? await users.findUserByInviteCode(tx, inviteCode) : undefined;
        if (inviteCode && !inviter) return { ok: false as const, key: 'invite_code_not_found' as const, data: {} };
        if (await users.findUserByUsername(tx, input.username)) {
          return { ok: false as const, key: 'username_taken' as const, data: {} };
        }
        const code = await deps.otp.consume(tx, input.username, input.verifyCode);
        if (!code.ok) return code;
        const user = await users.insertUser(tx, {
          username: input.username,
          passwordHash,
          inviteCode: await users.uniqueInviteCode(tx),
          inviterId: inviter?.id ?? null,
        });
        await insertWallet(tx, user.id);
        // Registering finishes task 2 (DESIGN.md §5); its reward pays the inviter's rebates too.
        await completeSystemTask(tx, user.id, SYSTEM_TASK_IDS.register, now());
        return { ok: true as const, token: await startSession(tx, user.id) };
      })
      .catch((error: unknown) => {
        // Two registrations of one username at once: the loser sees the same answer as a later one.
        if (isUniqueViolation(error)) return { ok: false as const, key: 'username_taken' as const, data: {} };
        throw error;
      });
    if (!result.ok) throw new AppError(result.key, result.data);
    return { token: result.token };
  }

  async function login(input: { username: string; password: string; ip: string }) {
    const ipKey = `login:ip:${input.ip}`;
    const ipFailures = await deps.counters.current(ipKey);
    if (ipFailures.count >= config.LOGIN_FAILURES_PER_IP) {
      throw new AppError('login_locked', { minutes: Math.ceil(ipFailures.retryAfterSeconds / 60) });
    }
    const username = normalizeUsername(input.username) ?? input.username.trim().toLowerCase();
    const user = await users.findUserByUsername(db, username);
    const failures = user ? await users.countRecentLoginFailures(db, user.id, new Date(now().getTime() - lockMs)) : 0;
    if (failures >= config.LOGIN_FAILURES_PER_ACCOUNT) {
      throw new AppError('login_locked', { minutes: config.LOGIN_LOCK_MINUTES });
    }
    const ok = await verifyPassword(user?.passwordHash, input.password);
    if (!user || !ok) {
      await deps.counters.increment(ipKey, lockMs);
      if (user) await users.recordLoginFailure(db, user.id, input.ip);
      throw new AppError('incorrect_username_or_password');
    }
    // Most logins have no failures to clear: one insert then, not a transaction of three statements
    // (on PGlite every statement runs on the event loop; benchmark 5's login flood).
    const token =
      failures > 0
        ? await db.transaction(async (tx) => {
            await users.clearLoginFailures(tx, user.id);
            return startSession(tx, user.id);
          })
        : await startSession(db, user.id);
    return { token };
  }

  async function resetPassword(input: { username: string; verifyCode: string; password: string }) {
    const user = await users.findUserByUsername(db, input.username);
    if (!user) throw new AppError('username_does_not_exist');
    const passwordHash = await hashPassword(input.password);
    const check = await db.transaction(async (tx) => {
      const code = await deps.otp.consume(tx, input.username, input.verifyCode);
      if (!code.ok) return code;
      await users.updatePassword(tx, user.id, passwordHash);
      await q.deleteUserSessions(tx, user.id);
      await users.clearLoginFailures(tx, user.id);
      return code;
    });
    if (!check.ok) throw new AppError(check.key, check.data);
    return null;
  }

  async function changePassword(caller: AuthUser, input: { oldPassword: string; password: string }) {
    const user = await users.findUserById(db, caller.id);
    if (!user) throw new AppError('unauthorized');
    if (!(await verifyPassword(user.passwordHash, input.oldPassword))) {
      throw new AppError('incorrect_old_password', { fields: { oldPassword: 'incorrect_old_password' } });
    }
    const passwordHash = await hashPassword(input.password);
    await db.transaction(async (tx) => {
      await users.updatePassword(tx, user.id, passwordHash);
      await q.deleteUserSessions(tx, user.id, caller.sessionHash);
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

  return { register, login, resetPassword, changePassword, logout, resolveSession };
}

export type AuthService = ReturnType<typeof createAuthService>;

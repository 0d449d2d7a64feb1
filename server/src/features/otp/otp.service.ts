import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { type MessageKey, OTP_MAX_TRIES, OTP_RESEND_SECONDS, OTP_TTL_SECONDS, type PageQuery } from '@kamai/contract';
import type { Db, Executor } from '../../db/client';
import type { Config } from '../../platform/config';
import { decodeCursor, encodeCursor, isRowId } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import type { RateCounters } from '../../platform/rate-limit';
import * as q from './otp.queries';
import type { OtpSender } from './otp.senders';

const HOUR_MS = 3_600_000;

export interface OtpServiceDeps {
  db: Db;
  config: Config;
  counters: RateCounters;
  senders: { sms: OtpSender; email: OtpSender };
  now?: () => Date;
}

export type CodeCheck = { ok: true } | { ok: false; key: MessageKey; data: Record<string, unknown> };

function hashCode(target: string, code: string): Buffer {
  return createHash('sha256').update(`${target}:${code}`).digest();
}

export function createOtpService(deps: OtpServiceDeps) {
  const now = deps.now ?? (() => new Date());

  /** Sends a fresh 6-digit code to a normalised target (e-mail or 91XXXXXXXXXX). */
  async function send({ target, ip }: { target: string; ip: string }) {
    if ((await deps.counters.increment(`otp:ip:${ip}`, HOUR_MS)) > deps.config.OTP_SENDS_PER_IP_PER_HOUR) {
      throw new AppError('otp_rate_limited');
    }
    const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
    const at = now();
    const id = await deps.db.transaction(async (tx) => {
      await q.lockTarget(tx, target);
      const last = await q.latestCodeAt(tx, target);
      const waited = last ? (at.getTime() - last.getTime()) / 1000 : Number.POSITIVE_INFINITY;
      if (waited < OTP_RESEND_SECONDS) {
        throw new AppError('otp_resend_wait', { seconds: Math.ceil(OTP_RESEND_SECONDS - waited) });
      }
      const recent = await q.countCodesSince(tx, target, new Date(at.getTime() - HOUR_MS));
      if (recent >= deps.config.OTP_SENDS_PER_TARGET_PER_HOUR) throw new AppError('otp_rate_limited');
      return q.insertCode(tx, {
        target,
        codeHash: hashCode(target, code).toString('hex'),
        createdAt: at,
        expiresAt: new Date(at.getTime() + OTP_TTL_SECONDS * 1000),
      });
    });
    const channel = target.includes('@') ? 'email' : 'sms';
    try {
      await deps.senders[channel].send({ channel, target, code });
    } catch (error) {
      // Undelivered: forget the code so the user may ask again at once.
      await q.deleteCode(deps.db, id);
      throw Object.assign(new AppError('service_unavailable'), { cause: error });
    }
    return { resendAfterSeconds: OTP_RESEND_SECONDS, expiresInSeconds: OTP_TTL_SECONDS };
  }

  /**
   * Checks `code` against the target's newest usable code inside the caller's transaction and
   * consumes it on a match. A wrong code counts a try; the caller commits that and then throws.
   */
  async function consume(tx: Executor, target: string, code: string): Promise<CodeCheck> {
    const row = await q.lockUsableCode(tx, target, now(), OTP_MAX_TRIES);
    if (!row) return { ok: false, key: 'verification_code_not_found', data: {} };
    const expected = Buffer.from(row.codeHash, 'hex');
    if (!timingSafeEqual(expected, hashCode(target, code))) {
      const attempts = await q.recordWrongTry(tx, row.id);
      const remaining = Math.max(0, OTP_MAX_TRIES - attempts);
      if (remaining === 0) return { ok: false, key: 'verification_code_not_found', data: {} };
      return { ok: false, key: 'verification_code_incorrect', data: { remaining } };
    }
    await q.consumeCode(tx, row.id, now());
    return { ok: true };
  }

  async function outbox({ limit, cursor }: PageQuery) {
    const beforeId = decodeCursor(cursor, isRowId);
    const rows = await q.listOutbox(deps.db, limit + 1, beforeId);
    const items = rows.slice(0, limit).map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
    const last = items.at(-1);
    return { items, nextCursor: rows.length > limit && last ? encodeCursor(last.id) : null };
  }

  return { send, consume, outbox };
}

export type OtpService = ReturnType<typeof createOtpService>;

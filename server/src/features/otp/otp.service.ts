import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

import { type MessageKey, OTP_MAX_TRIES, OTP_RESEND_SECONDS, OTP_TTL_SECONDS, type PageQuery } from '@kamai/contract';
import type { Db, Executor } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import type { Config } from '../../platform/config';
import { decodeCursor, encodeCursor, isRowId } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import type { RateLimit } from '../../platform/rate-limit';
import * as q from './otp.queries';
import type { OtpSender } from './otp.senders';

const HOUR_MS = 3_600_000;

export interface OtpServiceDeps {
  db: Db;
  config: Config;
  /** Codes sent per address an hour (OTP_SENDS_PER_IP_PER_HOUR). */
  sendsPerIp: RateLimit;
  senders: { sms: OtpSender; email: OtpSender };
  now?: () => Date;
}

export type CodeCheck = { ok: true; id: number } | { ok: false; key: MessageKey; data: Record<string, unknown> };

/** Who reads the outbox, for its audit row. */
export interface OutboxReader {
  id: number;
  requestId: string;
}

function hashCode(target: string, code: string): Buffer {
  return createHash('sha256').update(`${target}:${code}`).digest();
}

export function createOtpService(deps: OtpServiceDeps) {
  const now = deps.now ?? (() => new Date());
  // Live codes readable over the API only while they go nowhere real, and never in production (issue 12).
  const outboxOpen = (deps.senders.sms.sandbox || deps.senders.email.sandbox) && deps.config.NODE_ENV !== 'production';

  /** Sends a fresh 6-digit code to a normalised target (e-mail or 91XXXXXXXXXX). */
  async function send({ target, ip }: { target: string; ip: string }) {
    if (!(await deps.sendsPerIp.take(ip)).ok) throw new AppError('otp_rate_limited');
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
   * Checks `code` against the target's newest usable code inside the caller's transaction, which then
   * holds that code's row locked; on a match the caller decides whether to `use` it. A wrong code
   * counts a try; the caller commits that and then throws.
   */
  async function verify(tx: Executor, target: string, code: string): Promise<CodeCheck> {
    const row = await q.lockUsableCode(tx, target, now(), OTP_MAX_TRIES);
    if (!row) return { ok: false, key: 'verification_code_not_found', data: {} };
    const expected = Buffer.from(row.codeHash, 'hex');
    if (!timingSafeEqual(expected, hashCode(target, code))) {
      const attempts = await q.recordWrongTry(tx, row.id);
      const remaining = Math.max(0, OTP_MAX_TRIES - attempts);
      if (remaining === 0) return { ok: false, key: 'verification_code_not_found', data: {} };
      return { ok: false, key: 'verification_code_incorrect', data: { remaining } };
    }
    return { ok: true, id: row.id };
  }

  /** Marks a code verified by `verify` as used, in the same transaction: no one can use it again. */
  async function use(tx: Executor, id: number) {
    await q.consumeCode(tx, id, now());
  }

  /** Gives back a used code when what it was used for could not be finished (the hashing pool was full). */
  async function release(id: number) {
    await q.unconsumeCode(deps.db, id);
  }

  /** The sandbox's codes, for operators testing without a real sender; each read is audited. */
  async function outbox(reader: OutboxReader, { limit, cursor }: PageQuery) {
    if (!outboxOpen) throw new AppError('route_not_found');
    const beforeId = decodeCursor(cursor, isRowId);
    return deps.db.transaction(async (tx) => {
      const rows = await q.listOutbox(tx, limit + 1, beforeId);
      const items = rows.slice(0, limit).map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
      await writeAudit(tx, {
        actorId: reader.id,
        action: 'otp.outbox.read',
        target: 'otp:outbox',
        after: { codes: items.length, targets: items.map((item) => item.target) },
        requestId: reader.requestId,
      });
      const last = items.at(-1);
      return { items, nextCursor: rows.length > limit && last ? encodeCursor(last.id) : null };
    });
  }

  return { send, verify, use, release, outbox };
}

export type OtpService = ReturnType<typeof createOtpService>;

import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

import {
  canonicalIdentity,
  channelOfTarget,
  type DeliveryProvider,
  type Locale,
  type MessageKey,
  OTP_MAX_TRIES,
  OTP_RESEND_SECONDS,
  OTP_TTL_SECONDS,
  SMS_MESSAGE_MAX,
} from '@kamai/contract';
import type { Db, Executor } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import type { Config } from '../../platform/config';
import { AppError } from '../../platform/errors';
import type { RateLimit } from '../../platform/rate-limit';
import type { Actor } from '../../platform/routes';
import * as q from './otp.queries';
import { DeliveryFailed, type OtpSender } from './otp.senders';
import {
  checkMsg91Report,
  parseMsg91Report,
  parseTwilioReport,
  twilioStatusCallbackUrl,
  verifyTwilioSignature,
} from './sms.reports';

const HOUR_MS = 3_600_000;

export interface OtpServiceDeps {
  db: Db;
  config: Config;
  /** Codes sent per address an hour (OTP_SENDS_PER_IP_PER_HOUR). */
  sendsPerIp: RateLimit;
  /** Codes and messages one operator sends an hour through POST /obj/otp/* (OTP_ADMIN_SENDS_PER_HOUR). */
  adminSends: RateLimit;
  senders: { sms: OtpSender; email: OtpSender };
  now?: () => Date;
}

export type CodeCheck = { ok: true; id: number } | { ok: false; key: MessageKey; data: Record<string, unknown> };

function hashCode(target: string, code: string): Buffer {
  return createHash('sha256').update(`${target}:${code}`).digest();
}

export function createOtpService(deps: OtpServiceDeps) {
  const now = deps.now ?? (() => new Date());

  /** Why nobody took it, as the caller's answer: the target is refused everywhere (400), or try later (503). */
  function refusal(channel: 'sms' | 'email', error: unknown): AppError {
    const invalid = error instanceof DeliveryFailed && error.invalidTarget;
    const key = invalid
      ? channel === 'sms'
        ? 'invalid_phone_number_format'
        : 'enter_valid_email'
      : 'service_unavailable';
    return Object.assign(new AppError(key), { cause: error });
  }

  /** A fresh code for the target under its own limits (one a minute, a few an hour), then the send. */
  async function issueCode(target: string, locale: Locale) {
    const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
    const at = now();
    // The hourly limit counts the person, not the spelling: `x.sam+1@` … `x.sam+99@gmail.com` share one.
    const identity = canonicalIdentity(target);
    const id = await deps.db.transaction(async (tx) => {
      await q.lockTarget(tx, identity);
      const last = await q.latestCodeAt(tx, target);
      const waited = last ? (at.getTime() - last.getTime()) / 1000 : Number.POSITIVE_INFINITY;
      if (waited < OTP_RESEND_SECONDS) {
        throw new AppError('otp_resend_wait', { seconds: Math.ceil(OTP_RESEND_SECONDS - waited) });
      }
      const recent = await q.countCodesSince(tx, identity, new Date(at.getTime() - HOUR_MS));
      if (recent >= deps.config.OTP_SENDS_PER_TARGET_PER_HOUR) throw new AppError('otp_rate_limited');
      return q.insertCode(tx, {
        target,
        identity,
        codeHash: hashCode(target, code).toString('hex'),
        createdAt: at,
        expiresAt: new Date(at.getTime() + OTP_TTL_SECONDS * 1000),
      });
    });
    const channel = channelOfTarget(target);
    try {
      return await deps.senders[channel].send({ channel, target, locale, kind: 'code', code });
    } catch (error) {
      // Undelivered: forget the code so the user may ask again at once.
      await q.deleteCode(deps.db, id);
      throw refusal(channel, error);
    }
  }

  /** Sends a fresh 6-digit code to a normalised target (e-mail or 91XXXXXXXXXX) in the caller's language. */
  async function send({ target, ip, locale = 'en_US' }: { target: string; ip: string; locale?: Locale }) {
    // A channel this service does not use (SIGNUP_CHANNELS): refused before any limit or row, never sent.
    const channel = channelOfTarget(target);
    if (!deps.config.SIGNUP_CHANNELS.includes(channel)) {
      throw new AppError(channel === 'sms' ? 'otp_sms_disabled' : 'otp_email_disabled');
    }
    if (!(await deps.sendsPerIp.take(ip)).ok) throw new AppError('otp_rate_limited');
    await issueCode(target, locale);
    return { resendAfterSeconds: OTP_RESEND_SECONDS, expiresInSeconds: OTP_TTL_SECONDS };
  }

  /**
   * `POST /obj/otp/sms|email`: an operator sends a code (the target's own limits apply, and the code
   * works like one the user asked for) or a message. Limited per operator, audited with the outcome.
   */
  async function deliver(
    actor: Actor,
    input: { channel: 'sms' | 'email'; target: string; message?: string; locale: Locale },
  ) {
    // An SMS goes out as pieces of one DLT template, each within the DLT cap: a longer text cannot be sent.
    if (input.channel === 'sms' && input.message !== undefined && [...input.message].length > SMS_MESSAGE_MAX) {
      throw new AppError('sms_message_too_long', { max: SMS_MESSAGE_MAX });
    }
    if (!(await deps.adminSends.take(String(actor.id))).ok) throw new AppError('too_many_requests');
    const kind = input.message === undefined ? 'code' : 'message';
    const audit = async (outcome: Record<string, unknown>) =>
      writeAudit(deps.db, {
        actorId: actor.id,
        action: `otp.${input.channel}.${kind}`,
        target: `${input.channel === 'sms' ? 'phone' : 'email'}:${input.target}`,
        after: { locale: input.locale, ...(input.message === undefined ? {} : { message: input.message }), ...outcome },
        requestId: actor.requestId,
      });
    let provider: DeliveryProvider;
    try {
      if (input.message === undefined) {
        ({ provider } = await issueCode(input.target, input.locale));
      } else {
        const delivery = {
          channel: input.channel,
          target: input.target,
          locale: input.locale,
          kind: 'message',
          text: input.message,
        } as const;
        ({ provider } = await deps.senders[input.channel].send(delivery).catch((error: unknown) => {
          throw refusal(input.channel, error);
        }));
      }
    } catch (error) {
      await audit({ result: 'refused', key: error instanceof AppError ? error.key : 'internal_error' });
      throw error;
    }
    await audit({ result: 'sent', provider });
    return { kind, target: input.target, provider } as const;
  }

  /** MSG91's delivery report: refused unless it carries the report token (and comes from an allowed address). */
  async function msg91Report(input: { token: string | undefined; ip: string; body: unknown }) {
    checkMsg91Report(deps.config, input);
    let updated = 0;
    for (const report of parseMsg91Report(input.body)) {
      updated += await q.applyDeliveryReport(deps.db, { provider: 'msg91', ...report, at: now() });
    }
    return { updated };
  }

  /**
   * Twilio's status callback: refused (401) unless `X-Twilio-Signature` is right for our callback URL and
   * the posted parameters; `delivered` and `undelivered`/`failed` settle the delivery row, others are
   * acknowledged (queued, sent).
   */
  async function twilioReport(input: { signature: string | undefined; params: Record<string, string> }) {
    const token = deps.config.TWILIO_AUTH_TOKEN;
    if (!token) throw new AppError('route_not_found');
    if (!verifyTwilioSignature(token, twilioStatusCallbackUrl(deps.config), input.params, input.signature)) {
      throw new AppError('unauthorized');
    }
    const report = parseTwilioReport(input.params);
    if (!report) return { updated: 0 };
    return { updated: await q.applyDeliveryReport(deps.db, { provider: 'twilio', ...report, at: now() }) };
  }

  /**
   * Checks `code` against the target's newest usable code inside the caller's transaction, which then
   * holds that code's row locked; on a match the caller decides whether to `use` it. A wrong code
   * counts a try; the caller commits that and then throws.
   */
  /**
   * Refuses at once, with the answer `verify` would give, a target that has no usable code: one
   * unlocked read outside any transaction, so a flood of made-up codes for made-up numbers costs a
   * single indexed read each and never queues behind (or holds) a transaction
   * (docs/decisions/password-hashing-pools.md).
   */
  async function precheck(target: string): Promise<void> {
    if (!(await q.hasUsableCode(deps.db, target, now(), OTP_MAX_TRIES))) {
      throw new AppError('verification_code_not_found');
    }
  }

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

  return { send, precheck, verify, use, release, deliver, msg91Report, twilioReport, senders: deps.senders };
}

export type OtpService = ReturnType<typeof createOtpService>;

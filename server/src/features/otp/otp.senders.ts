import {
  type DeliveryProvider,
  EMAIL_RE,
  fillText,
  type Locale,
  OTP_EMAIL_SUBJECT,
  OTP_SMS_TEXT,
  OTP_TTL_SECONDS,
  originBoundLine,
} from '@kamai/contract';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Db } from '../../db/client';
import { insertDelivery, insertOutbox } from './otp.queries';

/** What one send carries: a one-time code, or an operator's message (`POST /obj/otp/*`). */
export type Delivery = {
  channel: 'sms' | 'email';
  /** E-mail address, or phone as 91XXXXXXXXXX. */
  target: string;
  /** The language of the text (DLT templates are per language). */
  locale: Locale;
} & ({ kind: 'code'; code: string } | { kind: 'message'; text: string });

/** Delivers a code or a message over one channel (docs/design.md "Scope"). Throws `DeliveryFailed` when nobody took it. */
export interface OtpSender {
  /** True while nothing leaves the machine (the outbox shows codes): the sandbox sender. */
  readonly sandbox: boolean;
  /** The providers tried in order, for the console and logs. */
  readonly providers: readonly string[];
  /** Resolves with the provider that accepted it. */
  send(delivery: Delivery): Promise<{ provider: DeliveryProvider }>;
}

/** Why a provider did not take a message: the target itself is wrong, or the provider is not usable now. */
export type FailureClass = 'invalid_target' | 'unavailable';

export class ProviderError extends Error {
  constructor(
    readonly failure: FailureClass,
    /** The provider's own error code and text, kept in the delivery row. */
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Every provider refused or timed out; `failures` in the order tried. */
export class DeliveryFailed extends Error {
  constructor(readonly failures: { provider: string; failure: FailureClass; detail: string }[]) {
    super(`delivery failed: ${failures.map((f) => `${f.provider}: ${f.detail}`).join('; ')}`);
  }
  /** Every provider said the target cannot receive it (so trying again will not help). */
  get invalidTarget() {
    return this.failures.length > 0 && this.failures.every((f) => f.failure === 'invalid_target');
  }
}

/** One outside provider of one channel; `signal` aborts the request when the provider is too slow. */
export interface ProviderClient {
  readonly name: 'msg91' | 'twilio' | 'smtp';
  send(delivery: Delivery, signal: AbortSignal): Promise<{ messageId: string | null }>;
}

export interface DeliveryLog {
  db: Db;
  log: FastifyBaseLogger;
  /** Counts each attempt for /metrics. */
  onAttempt?: (attempt: { channel: string; provider: string; status: 'sent' | 'failed' }) => void;
  /** NODE_ENV=production: no code is ever written to the log or the outbox. */
  production?: boolean;
}

/** The text of a code message in the user's language. */
export function codeText(locale: Locale, code: string) {
  return fillText(OTP_SMS_TEXT[locale], { code, minutes: Math.round(OTP_TTL_SECONDS / 60) });
}

/**
 * The text of a code SMS: the message, then the origin-bound line (`@<host> #<code>`) when the app's
 * public host is known (PUBLIC_URL, which production requires), so the phone offers the code to the
 * app's page and to no other site (docs/decisions/webotp.md).
 */
export function codeSmsText(locale: Locale, code: string, host: string | undefined) {
  const text = codeText(locale, code);
  return host ? `${text}\n\n${originBoundLine(host, code)}` : text;
}

/** The host a code SMS is bound to: PUBLIC_URL's, without its port (the format names a host only). */
export function smsCodeHost(publicUrl: string | undefined): string | undefined {
  return publicUrl ? new URL(publicUrl).hostname : undefined;
}

/**
 * The sandbox: one JSON log line with `"msg":"otp.sandbox"`, the target and the code, and a row in
 * the outbox that the admin console shows. Used for every channel that has no real sender.
 */
export function sandboxSender({ db, log, onAttempt, production }: DeliveryLog): OtpSender {
  return {
    sandbox: true,
    providers: ['sandbox'],
    async send(delivery) {
      if (production) {
        // A channel left out of SIGNUP_CHANNELS in production: nothing is sent and no code is shown anywhere.
        log.warn({ channel: delivery.channel, kind: delivery.kind }, 'otp.sandbox: not sent (production)');
      } else if (delivery.kind === 'code') {
        await insertOutbox(db, { channel: delivery.channel, target: delivery.target, code: delivery.code });
        log.info({ channel: delivery.channel, target: delivery.target, code: delivery.code }, 'otp.sandbox');
      } else {
        log.info({ channel: delivery.channel, target: delivery.target, text: delivery.text }, 'otp.sandbox.message');
      }
      await insertDelivery(db, {
        channel: delivery.channel,
        kind: delivery.kind,
        target: delivery.target,
        provider: 'sandbox',
        status: 'sent',
      });
      onAttempt?.({ channel: delivery.channel, provider: 'sandbox', status: 'sent' });
      return { provider: 'sandbox' };
    },
  };
}

/**
 * E-mail through SMTP_URL. The failover's abort signal is honoured: a mail server that stalls (at the
 * greeting, after a command, mid-data) is answered within `timeoutMs`, not after nodemailer's 10-minute
 * socket timeout; its connection is closed by the same limits.
 */
export function smtpClient(smtpUrl: string, from: string, timeoutMs = 30_000): ProviderClient {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    name: 'smtp',
    async send(delivery, signal) {
      // One plain mailbox or nothing: `a<b@evil.co>` or `a,b@evil.co` would be parsed by the mail
      // library as another recipient (docs/decisions/canonical-identity.md).
      if (!EMAIL_RE.test(delivery.target)) throw new ProviderError('invalid_target', 'smtp: not a plain mailbox');
      const subject =
        delivery.kind === 'code' ? fillText(OTP_EMAIL_SUBJECT[delivery.locale], { code: delivery.code }) : 'Kamai';
      const text = delivery.kind === 'code' ? codeText(delivery.locale, delivery.code) : delivery.text;
      let onAbort = () => {};
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(new ProviderError('unavailable', `smtp: no answer within ${timeoutMs} ms`));
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      });
      try {
        const info = await Promise.race([
          transport.sendMail({
            from,
            to: delivery.target,
            subject,
            text,
            headers: { 'Content-Language': delivery.locale.replace('_', '-') },
          }),
          aborted,
        ]);
        return { messageId: info.messageId ?? null };
      } catch (error) {
        if (error instanceof ProviderError) throw error;
        // 5xx SMTP answers about the recipient (550, 553) mean the address itself is refused.
        const code = (error as { responseCode?: number }).responseCode;
        const failure = code === 550 || code === 553 ? 'invalid_target' : 'unavailable';
        throw new ProviderError(failure, `smtp ${code ?? ''} ${(error as Error).message}`.trim());
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
  };
}

/**
 * Sends through `clients` in order: the first that accepts ends it; one that refuses or does not answer
 * within `timeoutMs` (its request is aborted, so it is never retried) hands over to the next. Each attempt
 * is one row of `otp_deliveries` (provider, status, the provider's id or error; never the code).
 */
export function failoverSender(clients: ProviderClient[], timeoutMs: number, deps: DeliveryLog): OtpSender {
  if (clients.length === 0) throw new Error('failoverSender needs at least one provider');
  return {
    sandbox: false,
    providers: clients.map((c) => c.name),
    async send(delivery) {
      const failures: DeliveryFailed['failures'] = [];
      for (const client of clients) {
        const row = {
          channel: delivery.channel,
          kind: delivery.kind,
          target: delivery.target,
          provider: client.name,
        } as const;
        try {
          const { messageId } = await client.send(delivery, AbortSignal.timeout(timeoutMs));
          await insertDelivery(deps.db, { ...row, status: 'sent', providerMessageId: messageId });
          deps.onAttempt?.({ channel: delivery.channel, provider: client.name, status: 'sent' });
          return { provider: client.name };
        } catch (error) {
          const failed =
            error instanceof ProviderError
              ? error
              : (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError'
                ? new ProviderError('unavailable', `no answer within ${timeoutMs} ms`)
                : new ProviderError('unavailable', `request failed: ${(error as Error).message}`);
          failures.push({ provider: client.name, failure: failed.failure, detail: failed.detail });
          deps.log.warn(
            { provider: client.name, channel: delivery.channel, target: delivery.target, error: failed.detail },
            'otp delivery failed',
          );
          await insertDelivery(deps.db, { ...row, status: 'failed', error: failed.detail.slice(0, 500) });
          deps.onAttempt?.({ channel: delivery.channel, provider: client.name, status: 'failed' });
        }
      }
      throw new DeliveryFailed(failures);
    },
  };
}

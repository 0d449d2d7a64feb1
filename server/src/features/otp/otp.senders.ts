import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Db } from '../../db/client';
import { insertOutbox } from './otp.queries';

export interface OtpMessage {
  channel: 'sms' | 'email';
  /** E-mail address, or phone as 91XXXXXXXXXX. */
  target: string;
  code: string;
}

/** Delivers a code over one channel. SMS providers plug in here (DESIGN.md §5). */
export interface OtpSender {
  /**
   * True only for the sandbox, which keeps codes where an operator can read them: the admin outbox
   * exists only while a sender says so (and never under NODE_ENV=production). A real sender says false.
   */
  readonly sandbox: boolean;
  send(message: OtpMessage): Promise<void>;
}

export type SmsSender = OtpSender;

/**
 * The sandbox: one JSON log line with `"msg":"otp.sandbox"`, the target and the code, and a row in
 * the outbox that the admin console shows. Used for every channel that has no real sender.
 */
export function sandboxSender(db: Db, log: FastifyBaseLogger): OtpSender {
  return {
    sandbox: true,
    async send(message) {
      await insertOutbox(db, message);
      log.info({ channel: message.channel, target: message.target, code: message.code }, 'otp.sandbox');
    },
  };
}

export function smtpSender(smtpUrl: string, from: string): OtpSender {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    sandbox: false,
    async send({ target, code }) {
      await transport.sendMail({
        from,
        to: target,
        subject: `Kamai verification code ${code}`,
        text: `Your Kamai verification code is ${code}. It is valid for 10 minutes. Do not share it with anyone.`,
      });
    },
  };
}

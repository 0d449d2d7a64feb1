import type { FastifyInstance } from 'fastify';
import type { RateCounters } from '../../platform/rate-limit';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { type OtpSender, sandboxSender, smtpSender } from './otp.senders';
import { createOtpService, type OtpService } from './otp.service';

function otpHandlers(otp: OtpService): Handlers {
  return {
    otpSend: ({ body, ip }) => otp.send({ target: body.target, ip }),
    adminOtpOutbox: ({ query }) => otp.outbox(query),
  };
}

/**
 * Verification codes. `smsSender`: real SMS delivery; without it (and without SMTP_URL for e-mail)
 * codes go to the sandbox outbox and the log.
 */
export function register(app: FastifyInstance, deps: FeatureDeps & { counters: RateCounters; smsSender?: OtpSender }) {
  const { db, config, log } = deps;
  const email = config.SMTP_URL ? smtpSender(config.SMTP_URL, config.SMTP_FROM) : sandboxSender(db, log);
  const sms = deps.smsSender ?? sandboxSender(db, log);
  const otp = createOtpService({ ...deps, senders: { sms, email } });
  registerRoutes(app, otpHandlers(otp));
  return otp;
}

import { routes } from '@kamai/contract';
import type { FastifyInstance } from 'fastify';
import { HOUR_S, type RateLimits } from '../../platform/rate-limit';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createOtpAdmin, type OtpAdmin } from './otp.admin';
import { type DeliveryLog, failoverSender, type OtpSender, sandboxSender, smtpClient } from './otp.senders';
import { createOtpService, type OtpService } from './otp.service';
import { smsSenderFor } from './sms.providers';

function otpHandlers(otp: OtpService, admin: OtpAdmin, channels: readonly ('sms' | 'email')[]): Handlers {
  return {
    otpChannels: async () => ({ channels: [...channels] }),
    otpSend: ({ body, ip, locale }) => otp.send({ target: body.target, ip, locale }),
    adminOtpOutbox: (ctx) => admin.outbox(ctx.actor, ctx.query),
    adminOtpDeliveries: ({ query }) => admin.deliveries(query),
    objOtpSms: (ctx) =>
      otp.deliver(ctx.actor, {
        channel: 'sms',
        target: ctx.body.target,
        message: ctx.body.message,
        locale: ctx.body.locale ?? ctx.locale,
      }),
    objOtpEmail: (ctx) =>
      otp.deliver(ctx.actor, {
        channel: 'email',
        target: ctx.body.target,
        message: ctx.body.message,
        locale: ctx.body.locale ?? ctx.locale,
      }),
    smsReportMsg91: ({ query, body, ip }) => otp.msg91Report({ token: query.token, ip, body }),
    smsReportTwilio: ({ body, rawHeaders }) => {
      const signature = rawHeaders['x-twilio-signature'];
      return otp.twilioReport({ signature: typeof signature === 'string' ? signature : undefined, params: body });
    },
  };
}

/**
 * `application/x-www-form-urlencoded` bodies, parsed only on the listed paths (MSG91's v2 delivery report
 * posts a form); everywhere else such a body stays refused with 415, as before.
 */
function acceptFormBodies(app: FastifyInstance, paths: string[]) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    if (!paths.includes(request.routeOptions.url ?? '')) {
      done(
        Object.assign(new Error('Unsupported Media Type'), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }),
      );
      return;
    }
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
}

/**
 * Verification codes and operator messages. SMS goes through SMS_PROVIDER (the sandbox, MSG91, Twilio
 * or a failover list; `smsSender` replaces it), e-mail through SMTP_URL or the sandbox. Every attempt is
 * recorded; `onDelivery` counts it for /metrics. The service's `senders.sms.sandbox` says whether codes
 * stay on the machine (the outbox).
 */
export function register(
  app: FastifyInstance,
  deps: FeatureDeps & {
    rates: RateLimits;
    smsSender?: OtpSender;
    onDelivery?: DeliveryLog['onAttempt'];
  },
) {
  const { db, config, log } = deps;
  const deliveryLog: DeliveryLog = {
    db,
    log,
    onAttempt: deps.onDelivery,
    production: config.NODE_ENV === 'production',
  };
  const email = config.SMTP_URL
    ? failoverSender(
        [smtpClient(config.SMTP_URL, config.SMTP_FROM, config.SMTP_TIMEOUT_MS)],
        config.SMTP_TIMEOUT_MS,
        deliveryLog,
      )
    : sandboxSender(deliveryLog);
  const sms = deps.smsSender ?? smsSenderFor(config, deliveryLog);
  const otp = createOtpService({
    ...deps,
    sendsPerIp: deps.rates.limit('otp:ip', config.OTP_SENDS_PER_IP_PER_HOUR, HOUR_S),
    adminSends: deps.rates.limit('otp:admin', config.OTP_ADMIN_SENDS_PER_HOUR, HOUR_S),
    senders: { sms, email },
  });
  acceptFormBodies(app, ['/go_user/api/v1/common/sms/report/msg91', routes.smsReportTwilio.path]);
  registerRoutes(
    app,
    otpHandlers(otp, createOtpAdmin({ db, config, senders: { sms, email } }), config.SIGNUP_CHANNELS),
  );
  return otp;
}

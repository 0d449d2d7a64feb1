import type { Handlers } from '../../platform/routes';
import { caller } from '../../platform/routes';
import type { OtpService } from './otp.service';

export function otpHandlers(otp: OtpService): Handlers {
  return {
    otpSend: ({ body, ip, locale }) => otp.send({ target: body.target, ip, locale }),
    adminOtpOutbox: ({ query }) => otp.outbox(query),
    adminOtpDeliveries: ({ query }) => otp.deliveries(query),
    objOtpSms: (ctx) =>
      otp.deliver(
        { id: caller(ctx).id, requestId: ctx.requestId },
        { channel: 'sms', target: ctx.body.target, message: ctx.body.message, locale: ctx.body.locale ?? ctx.locale },
      ),
    objOtpEmail: (ctx) =>
      otp.deliver(
        { id: caller(ctx).id, requestId: ctx.requestId },
        { channel: 'email', target: ctx.body.target, message: ctx.body.message, locale: ctx.body.locale ?? ctx.locale },
      ),
    smsReportMsg91: ({ query, body, ip }) => otp.msg91Report({ token: query.token, ip, body }),
  };
}

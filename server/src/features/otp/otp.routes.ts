import { caller, type Handlers } from '../../platform/routes';
import type { OtpService } from './otp.service';

export function otpHandlers(otp: OtpService): Handlers {
  return {
    otpSend: ({ body, ip }) => otp.send({ target: body.target, ip }),
    adminOtpOutbox: (ctx) => otp.outbox({ id: caller(ctx).id, requestId: ctx.requestId }, ctx.query),
  };
}

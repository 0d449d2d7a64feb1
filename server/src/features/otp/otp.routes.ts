import type { Handlers } from '../../platform/routes';
import type { OtpService } from './otp.service';

export function otpHandlers(otp: OtpService): Handlers {
  return {
    otpSend: ({ body, ip }) => otp.send({ target: body.target, ip }),
    adminOtpOutbox: ({ query }) => otp.outbox(query),
  };
}

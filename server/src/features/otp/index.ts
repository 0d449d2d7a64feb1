// The public face of the otp feature (verification codes and their senders).

export { forgetOtpTarget } from './otp.queries';
export { register } from './otp.routes';
export type { Delivery, OtpSender } from './otp.senders';
export type { OtpService } from './otp.service';

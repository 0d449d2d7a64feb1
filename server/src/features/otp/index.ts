// The public face of the otp feature (verification codes and their senders).
export { otpHandlers } from './otp.routes';
export { type OtpSender, sandboxSender, smtpSender } from './otp.senders';
export { createOtpService, type OtpService } from './otp.service';

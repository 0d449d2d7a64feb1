// The public face of the otp feature (verification codes and their senders).
export { otpHandlers } from './otp.routes';
export {
  type Delivery,
  DeliveryFailed,
  type DeliveryLog,
  failoverSender,
  type OtpSender,
  type ProviderClient,
  ProviderError,
  type SmsSender,
  sandboxSender,
  smtpClient,
} from './otp.senders';
export { createOtpService, type OtpService } from './otp.service';
export { msg91Client, twilioClient } from './sms.providers';

/** A production configuration with every real provider set (values that pass the checks). */
export const PRODUCTION_ENV: Readonly<Record<string, string>> = {
  NODE_ENV: 'production',
  PAYOUT_GATEWAY: 'razorpayx',
  RAZORPAYX_KEY_ID: 'rzp_live_Kamai1234',
  RAZORPAYX_KEY_SECRET: 'live-key-secret-0123',
  RAZORPAYX_ACCOUNT_NUMBER: '7878780080316316',
  RAZORPAYX_WEBHOOK_SECRET: 'whsec-live-0123456',
  SMS_PROVIDER: 'msg91',
  MSG91_AUTH_KEY: 'msg91-auth-key-0123',
  MSG91_OTP_TEMPLATE_ID: '6543210fedcba',
  SMTP_URL: 'smtp://mail.kamai.in:587',
  SMTP_FROM: 'Kamai <no-reply@kamai.in>',
  LINK_PROVIDER: 'manual',
  PUBLIC_URL: 'https://kamai.in',
  METRICS_TOKEN: 'metrics-token-0123456789',
};

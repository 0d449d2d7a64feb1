import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');
const positiveInt = z.coerce.number({ error: 'must be a whole number' }).int().positive();
const nonNegativeInt = z.coerce.number({ error: 'must be a whole number' }).int().min(0, 'must be 0 or more');

/** Every setting the server reads from the environment (README "Configuration" lists them). */
export const configSchema = z.object({
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_POOL_SIZE: positiveInt.max(1000).default(20),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/, 'must be 1 to 64 letters, digits, _ : . or -')
    .default('kamai:'),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  METRICS_LEDGER_CHECK_SECONDS: positiveInt.default(60),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: z.url({ error: 'must be an absolute URL' }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  SMTP_FROM: z.string().min(3).default('Kamai <no-reply@kamai.local>'),
  ADMIN_USERNAME: z.string().min(1).optional(),
  ADMIN_PASSWORD: z.string().min(6, 'must be 6 to 20 characters').max(20, 'must be 6 to 20 characters').optional(),
  INVITE_CODE_REQUIRED: bool.default(true),
  PAYOUT_GATEWAY_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  SANDBOX_PAYOUT_DELAY_MS: nonNegativeInt.max(3_600_000, 'must be at most 3600000').default(3000),
  SANDBOX_PAYOUT_FAILURE_RATE: z.coerce
    .number({ error: 'must be a number from 0 to 1' })
    .min(0, 'must be a number from 0 to 1')
    .max(1, 'must be a number from 0 to 1')
    .default(0),
  PAYOUT_RECONCILE_AFTER_SECONDS: positiveInt.default(600),
  JOB_LEASE_SECONDS: positiveInt.min(2, 'must be at least 2').default(60),
  JOB_WORKERS: positiveInt.max(64, 'must be at most 64').default(4),
  JOB_RETENTION_HOURS: positiveInt.default(168),
  IDEMPOTENCY_RETENTION_HOURS: positiveInt.min(24, 'must be at least 24').default(72),
  OTP_SENDS_PER_IP_PER_HOUR: positiveInt.default(200),
  OTP_SENDS_PER_TARGET_PER_HOUR: positiveInt.default(10),
  LOGIN_FAILURES_PER_ACCOUNT: positiveInt.default(10),
  LOGIN_FAILURES_PER_IP: positiveInt.default(300),
  LOGIN_LOCK_MINUTES: positiveInt.default(15),
  TRUST_PROXY: bool.default(false),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Parses the environment; a bad value throws one line per variable, naming it. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = configSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

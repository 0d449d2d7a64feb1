import { resolve } from 'node:path';
import { LOCALES, normalizeUsername, PASSWORD_MAX, PASSWORD_MIN } from '@kamai/contract';
import { z } from 'zod';
import { parseDatabaseUrl, refineDatabaseUrl } from '../db/database-url';
import { productionProblems } from './production-check';
import { DEFAULT_PUSH_ORIGINS, parseOrigins } from './push-origins';

const bool = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');
const positiveInt = z.coerce.number({ error: 'must be a whole number' }).int().positive();
const nonNegativeInt = z.coerce.number({ error: 'must be a whole number' }).int().min(0, 'must be 0 or more');

/** The SMS providers (docs/decisions/sms-delivery.md); each is tried in the order of SMS_PROVIDER. */
export const SMS_PROVIDERS = ['sandbox', 'msg91', 'twilio'] as const;
export type SmsProvider = (typeof SMS_PROVIDERS)[number];

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .transform((v) => v.replace(/\/+$/, ''));
/** A DLT template id as MSG91 shows it (hex or digits). */
const templateId = z.string().regex(/^[\w-]{4,64}$/, 'must be the template id MSG91 shows (4 to 64 letters/digits)');

function smsSettings() {
  const perLocale = Object.fromEntries(
    LOCALES.map((locale) => [`MSG91_OTP_TEMPLATE_ID_${locale.toUpperCase()}`, templateId.optional()]),
  ) as Record<`MSG91_OTP_TEMPLATE_ID_${Uppercase<(typeof LOCALES)[number]>}`, z.ZodOptional<typeof templateId>>;
  return {
    SMS_PROVIDER: z
      .string()
      .default('sandbox')
      .transform((value, ctx) => {
        const list = value.split(',').map((p) => p.trim().toLowerCase());
        const bad = list.filter((p) => !(SMS_PROVIDERS as readonly string[]).includes(p));
        if (bad.length > 0 || list.length === 0) {
          ctx.addIssue({
            code: 'custom',
            message: `unknown provider ${bad.join(', ') || '(empty)'}: use sandbox, msg91, twilio or a comma list`,
          });
          return z.NEVER;
        }
        if (new Set(list).size !== list.length) {
          ctx.addIssue({ code: 'custom', message: 'lists a provider twice' });
          return z.NEVER;
        }
        if (list.length > 1 && list.includes('sandbox')) {
          ctx.addIssue({ code: 'custom', message: 'sandbox cannot be part of a failover list' });
          return z.NEVER;
        }
        return list as SmsProvider[];
      }),
    /** How long one provider may take to answer before the next one in SMS_PROVIDER sends. */
    SMS_TIMEOUT_MS: positiveInt.max(60_000, 'must be at most 60000').default(5000),
    MSG91_AUTH_KEY: z.string().min(8, 'must be at least 8 characters').optional(),
    MSG91_OTP_TEMPLATE_ID: templateId.optional(),
    ...perLocale,
    /** A DLT template with one variable `message`, for operator messages sent through POST /obj/otp/sms. */
    MSG91_MESSAGE_TEMPLATE_ID: templateId.optional(),
    MSG91_BASE_URL: httpUrl.default('https://control.msg91.com'),
    /** The secret that must be in the delivery report URL registered with MSG91 (`?token=`). */
    MSG91_REPORT_TOKEN: z
      .string()
      .regex(/^[\w-]{24,128}$/, 'must be 24 to 128 letters, digits, _ or -')
      .optional(),
    /** When set, delivery reports are only taken from these addresses (comma list). */
    MSG91_REPORT_IPS: z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((ip) => ip.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.union([z.ipv4(), z.ipv6()], { error: 'must be a comma list of IP addresses' })).min(1))
      .optional(),
    TWILIO_ACCOUNT_SID: z
      .string()
      .regex(/^AC[0-9a-fA-F]{32}$/, 'must be AC followed by 32 hex digits')
      .optional(),
    TWILIO_AUTH_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    TWILIO_FROM: z
      .string()
      .regex(
        /^(\+[1-9]\d{6,14}|[A-Za-z0-9 ]{1,11}|MG[0-9a-fA-F]{32})$/,
        'must be an E.164 number, an alphanumeric sender id or a Messaging Service SID',
      )
      .optional(),
    TWILIO_BASE_URL: httpUrl.default('https://api.twilio.com'),
  };
}

const staffUsername = z
  .string()
  .min(1, 'must be an e-mail or Indian mobile')
  .transform((value, ctx) => {
    const username = normalizeUsername(value);
    if (username) return username;
    ctx.addIssue({ code: 'custom', message: 'must be an e-mail or Indian mobile' });
    return z.NEVER;
  });
const passwordLength = `must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`;
const staffPassword = z.string().min(PASSWORD_MIN, passwordLength).max(PASSWORD_MAX, passwordLength);

/** One staff account the deployment makes sure of at start (docs/decisions/first-admin.md). */
const staffAccount = z.strictObject(
  {
    username: staffUsername,
    password: staffPassword,
    role: z.enum(['admin', 'reviewer'], { error: 'must be admin or reviewer' }),
  },
  { error: 'must be an object {"username","password","role"}' },
);
export type StaffAccount = z.infer<typeof staffAccount>;

/** STAFF_ACCOUNTS: a JSON array of staff accounts; bad JSON is named before its shape is. */
const staffAccounts = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `is not valid JSON (${(error as Error).message})` });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(staffAccount, { error: 'must be a JSON array of {"username","password","role"}' })
      .max(100, 'lists more than 100 accounts'),
  );

function replicaUrlProblem(url: string): string | undefined {
  if (!/^postgres(ql)?:\/\//.test(url)) return 'must start with postgres:// or postgresql://';
  try {
    parseDatabaseUrl(url);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** DATABASE_REPLICA_URLS: a comma list of streaming standbys; the commas leave each URL one host. */
const replicaUrls = z.string().transform((list, ctx) => {
  const urls = list
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
  if (urls.length === 0 || urls.length > 16) {
    ctx.addIssue({ code: 'custom', message: 'must list 1 to 16 postgres:// URLs, separated by commas' });
    return z.NEVER;
  }
  for (const [index, url] of urls.entries()) {
    const problem = replicaUrlProblem(url);
    if (problem) ctx.addIssue({ code: 'custom', path: [index], message: `URL ${index + 1} ${problem}` });
  }
  return urls;
});

/** A provider named in SMS_PROVIDER must have its credentials. */
function requireProviderSettings(
  config: { SMS_PROVIDER: SmsProvider[] } & Record<string, unknown>,
  ctx: z.core.$RefinementCtx,
) {
  const need: Record<SmsProvider, string[]> = {
    sandbox: [],
    msg91: ['MSG91_AUTH_KEY', 'MSG91_OTP_TEMPLATE_ID'],
    twilio: ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'],
  };
  for (const provider of config.SMS_PROVIDER) {
    for (const name of need[provider]) {
      if (config[name] === undefined) {
        ctx.addIssue({ code: 'custom', path: [name], message: `is required when SMS_PROVIDER includes ${provider}` });
      }
    }
  }
}

/** Every setting the server reads from the environment (README "Configuration" lists them). */
export const configSchema = z.object({
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .superRefine(refineDatabaseUrl)
    .optional(),
  /** How long start-up waits for the database (several hosts: a writable one) before it gives up. */
  DATABASE_WAIT_SECONDS: nonNegativeInt.max(3600, 'must be at most 3600').default(60),
  DATABASE_POOL_SIZE: positiveInt.max(1000).default(20),
  /** Streaming standbys that take the reads which may be a moment stale (docs/decisions/read-replicas.md). */
  DATABASE_REPLICA_URLS: replicaUrls.optional(),
  /** A replica further behind the primary than this is not read until it catches up. */
  DATABASE_REPLICA_MAX_LAG_MS: positiveInt
    .min(100, 'must be at least 100')
    .max(600_000, 'must be at most 600000')
    .default(2000),
  // Processes serving HTTP (node:cluster); more than 1 only with DATABASE_URL (checked below).
  WEB_CONCURRENCY: positiveInt.max(64).default(1),
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
  /**
   * Web Push (docs/decisions/web-push.md): both keys or neither; without them a pair is generated once and kept in
   * settings.
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'must be a base64url P-256 public key (87 characters)')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url P-256 private key (43 characters)')
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:[^@\s]+@[^@\s]+|https:\/\/\S+)$/, 'must be a mailto: address or an https: URL')
    .optional(),
  PUSH_ALLOWED_ORIGINS: z
    .string()
    .default(DEFAULT_PUSH_ORIGINS.join(','))
    .transform((list, ctx) => {
      try {
        return parseOrigins(list);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: z.url({ error: 'must be an absolute URL' }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Answers logged: every 5xx, every one slower than LOG_SLOW_MS, and this share of the rest.
  LOG_SLOW_MS: nonNegativeInt.default(1000),
  LOG_SAMPLE_RATE: z.coerce.number({ error: 'must be a number from 0 to 1' }).min(0).max(1).default(0.01),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  SMTP_FROM: z.string().min(3).default('Kamai <no-reply@kamai.local>'),
  /** How long the mail server may take with one message before the attempt is abandoned. */
  SMTP_TIMEOUT_MS: positiveInt.max(120_000, 'must be at most 120000').default(30_000),
  ADMIN_USERNAME: staffUsername.optional(),
  ADMIN_PASSWORD: staffPassword.optional(),
  /** More staff the deployment creates or promotes at start: `[{"username","password","role"}]`, role admin or reviewer. */
  STAFF_ACCOUNTS: staffAccounts.default([]),
  INVITE_CODE_REQUIRED: bool.default(true),
  PAYOUT_GATEWAY_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** The key of the identity ledger's hashes; never stored in the database (docs/decisions/keys-outside-the-database.md). */
  IDENTITY_HASH_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** The keys being rotated away from (comma list): their hashes still match (docs/operations.md). */
  IDENTITY_HASH_SECRET_PREVIOUS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((key) => key.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().min(16, 'each key must be at least 16 characters')))
    .default([]),
  /** Signs the short-lived links to uploaded files; unset (development only): generated and kept in settings. */
  UPLOAD_URL_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  SANDBOX_PAYOUT_DELAY_MS: nonNegativeInt.max(3_600_000, 'must be at most 3600000').default(3000),
  SANDBOX_PAYOUT_FAILURE_RATE: z.coerce
    .number({ error: 'must be a number from 0 to 1' })
    .min(0, 'must be a number from 0 to 1')
    .max(1, 'must be a number from 0 to 1')
    .default(0),
  PAYOUT_RECONCILE_AFTER_SECONDS: positiveInt.default(600),
  /** Which gateway pays newly approved withdrawals; each withdrawal keeps the one it was approved with. */
  PAYOUT_GATEWAY: z.enum(['sandbox', 'razorpayx'], { error: 'must be sandbox or razorpayx' }).default('sandbox'),
  RAZORPAYX_KEY_ID: z
    .string()
    .regex(/^rzp_(live|test)_\w+$/, 'must be a RazorpayX key id (rzp_live_... or rzp_test_...)')
    .optional(),
  RAZORPAYX_KEY_SECRET: z.string().min(8, 'must be at least 8 characters').optional(),
  /** The RazorpayX business account (current account or customer identifier) payouts are made from. */
  RAZORPAYX_ACCOUNT_NUMBER: z
    .string()
    .regex(/^\w{6,40}$/, 'must be 6 to 40 letters or digits')
    .optional(),
  RAZORPAYX_WEBHOOK_SECRET: z.string().min(8, 'must be at least 8 characters').optional(),
  /** The previous webhook secret, also accepted while a rotation is under way (docs/operations.md). */
  RAZORPAYX_WEBHOOK_SECRET_PREVIOUS: z.string().min(8, 'must be at least 8 characters').optional(),
  RAZORPAYX_BASE_URL: z.url({ error: 'must be an absolute URL' }).default('https://api.razorpay.com'),
  /** How long one RazorpayX API call may take before it is abandoned (and retried with the same idempotency key). */
  RAZORPAYX_TIMEOUT_MS: positiveInt.max(120_000, 'must be at most 120000').default(15_000),
  /**
   * Most RazorpayX API calls per second the reconciliation makes while it pages through a day's payouts
   * ("make all the calls within a range of 5-10 transactions per sec",
   * https://razorpay.com/docs/razorpayx/best-practices/).
   */
  RAZORPAYX_REQUESTS_PER_SECOND: positiveInt
    .max(10, 'must be at most 10 (RazorpayX asks for 5 to 10 a second)')
    .default(5),
  /**
   * This installation's prefix in every payout reference and idempotency key (2-10 lowercase letters or
   * digits). Unset: one generated on the first start and kept in settings. Set it when a database is
   * restored into a new installation, so staging and production never share one.
   */
  PAYOUT_REFERENCE_PREFIX: z
    .string()
    .regex(/^[a-z0-9]{2,10}$/, 'must be 2 to 10 lowercase letters or digits')
    .optional(),
  /**
   * `off` where RazorpayX cannot validate accounts (a current account, test mode: docs/operations.md
   * "Which RazorpayX product checks accounts"): new payout accounts go to the operators' queue at once.
   */
  RAZORPAYX_ACCOUNT_VALIDATION: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  JOB_LEASE_SECONDS: positiveInt.min(2, 'must be at least 2').default(60),
  /**
   * Background job loops in this process. 0: it runs none (no jobs, periodic tasks or reconciliation),
   * a web-only process beside others that run them; with none anywhere, approved payouts wait.
   */
  JOB_WORKERS: nonNegativeInt.max(64, 'must be at most 64').default(4),
  JOB_RETENTION_HOURS: positiveInt.default(168),
  IDEMPOTENCY_RETENTION_HOURS: positiveInt.min(24, 'must be at least 24').default(72),
  OTP_SENDS_PER_IP_PER_HOUR: positiveInt.default(200),
  OTP_SENDS_PER_TARGET_PER_HOUR: positiveInt.default(10),
  /** Codes and messages one operator may send through POST /obj/otp/sms|email in an hour. */
  OTP_ADMIN_SENDS_PER_HOUR: positiveInt.default(30),
  /** Failed logins from one address, any accounts, per LOGIN_ADDRESS_LOCK_MINUTES (contract). */
  LOGIN_FAILURES_PER_IP: positiveInt.default(300),
  /** Registration and password-reset attempts from one address an hour. */
  REGISTRATIONS_PER_IP_PER_HOUR: positiveInt.default(100),
  RESETS_PER_IP_PER_HOUR: positiveInt.default(100),
  /**
   * A registration or password reset refused for its one-time code answers this late (ms). A script
   * that guesses codes or floods sign-ups on many connections is slowed to one try per connection per
   * delay, so the event loop stays free for real logins (docs/decisions/password-hashing-pools.md; benchmark 5). 0
   * turns it off.
   */
  AUTH_CODE_FAILURE_DELAY_MS: nonNegativeInt.max(10_000).default(1000),
  /**
   * CPU priority (nice, 0-19) of the password-hashing threads: a login's hash waits for the user at
   * the door, an anonymous sign-up's may wait longest (benchmark 5; docs/performance.md).
   */
  HASH_NICE_LOGIN: nonNegativeInt.max(19).default(19),
  HASH_NICE_SIGNUP: nonNegativeInt.max(19).default(19),
  TRUST_PROXY: bool.default(false),
  /** `production` hides what only a sandbox may show (the OTP outbox). */
  NODE_ENV: z.string().default('development'),
  /** The channels sign-up and codes use; an e-mail-only or phone-only service names one (docs/operations.md). */
  SIGNUP_CHANNELS: z
    .string()
    .default('sms,email')
    .transform((v) => [...new Set(v.split(',').map((c) => c.trim().toLowerCase()))])
    .pipe(z.array(z.enum(['sms', 'email'], { error: 'must be sms, email or sms,email' })).min(1)),
  /** Linked accounts: `sandbox` (development) or `manual`, where operators confirm each status in the console. */
  LINK_PROVIDER: z.enum(['sandbox', 'manual'], { error: 'must be sandbox or manual' }).default('sandbox'),
  ...smsSettings(),
});

/** ADMIN_USERNAME and ADMIN_PASSWORD together or not at all; no account named twice. */
function refineStaffSettings(
  config: { ADMIN_USERNAME?: string; ADMIN_PASSWORD?: string; STAFF_ACCOUNTS: StaffAccount[] },
  context: z.core.$RefinementCtx,
) {
  if (Boolean(config.ADMIN_USERNAME) !== Boolean(config.ADMIN_PASSWORD)) {
    const missing = config.ADMIN_USERNAME ? 'ADMIN_PASSWORD' : 'ADMIN_USERNAME';
    context.addIssue({
      code: 'custom',
      path: [missing],
      message: 'ADMIN_USERNAME and ADMIN_PASSWORD must be set together',
    });
  }
  const seen = new Set(config.ADMIN_USERNAME ? [config.ADMIN_USERNAME] : []);
  config.STAFF_ACCOUNTS.forEach((account, index) => {
    if (seen.has(account.username))
      context.addIssue({
        code: 'custom',
        path: ['STAFF_ACCOUNTS', index, 'username'],
        message: `${account.username} is named twice (here or in ADMIN_USERNAME)`,
      });
    seen.add(account.username);
  });
}

const RAZORPAYX_REQUIRED = [
  'RAZORPAYX_KEY_ID',
  'RAZORPAYX_KEY_SECRET',
  'RAZORPAYX_ACCOUNT_NUMBER',
  'RAZORPAYX_WEBHOOK_SECRET',
] as const;

/** The settings plus the rules across them: RazorpayX chosen needs its keys, account and webhook secret. */
export const checkedConfigSchema = configSchema.superRefine(requireProviderSettings).superRefine((config, context) => {
  // PGlite is a database inside one process: several processes cannot share its directory.
  if (config.WEB_CONCURRENCY > 1 && !config.DATABASE_URL) {
    context.addIssue({
      code: 'custom',
      path: ['WEB_CONCURRENCY'],
      message: 'more than 1 needs DATABASE_URL (PGlite, the default database, serves one process)',
    });
  }
  if (config.DATABASE_REPLICA_URLS && !config.DATABASE_URL) {
    context.addIssue({
      code: 'custom',
      path: ['DATABASE_REPLICA_URLS'],
      message: 'needs DATABASE_URL (a PostgreSQL primary): PGlite, the default database, has no standbys',
    });
  }
  refineStaffSettings(config, context);
  // NODE_ENV=production refuses every sandbox (production-check.ts), one line per variable.
  for (const p of productionProblems(config))
    context.addIssue({ code: 'custom', path: [p.variable], message: p.message });
  if (config.PAYOUT_GATEWAY !== 'razorpayx') return;
  for (const name of RAZORPAYX_REQUIRED) {
    if (!config[name])
      context.addIssue({ code: 'custom', path: [name], message: 'required when PAYOUT_GATEWAY=razorpayx' });
  }
});

/** Whether every RazorpayX setting is present (the adapter then runs, whatever PAYOUT_GATEWAY says). */
export function razorpayxConfigured(config: Config) {
  return RAZORPAYX_REQUIRED.every((name) => Boolean(config[name]));
}

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/**
 * DATA_DIR made absolute: a relative one (the default `./data` included) is taken from `root`, the
 * repository root, whatever folder the process was started in (`npm run dev` runs the server in server/).
 */
export function absoluteDataDir(config: Config, root: string): string {
  return resolve(root, config.DATA_DIR);
}

/** Parses the environment; a bad value throws one line per variable, naming it. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = checkedConfigSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

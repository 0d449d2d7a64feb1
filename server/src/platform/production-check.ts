import { isIP } from 'node:net';
import { isCommonPassword } from './common-passwords';

/**
 * What NODE_ENV=production refuses to start with (docs/operations.md "Go-live checklist"): every
 * setting that would let the server run on a sandbox where real people and real money are involved.
 * Each problem is one line naming the variable; the caller prints them all and exits non-zero.
 */
export interface ProductionSettings {
  NODE_ENV: string;
  PAYOUT_GATEWAY: string;
  RAZORPAYX_KEY_ID?: string;
  SMS_PROVIDER: readonly string[];
  SMTP_URL?: string;
  SMTP_FROM: string;
  SIGNUP_CHANNELS: readonly ('sms' | 'email')[];
  LINK_PROVIDER: string;
  PUBLIC_URL?: string;
  METRICS_TOKEN?: string;
  ADMIN_USERNAME?: string;
  ADMIN_PASSWORD?: string;
  STAFF_ACCOUNTS?: readonly { username: string; password: string }[];
  IDENTITY_HASH_SECRET?: string;
  UPLOAD_URL_SECRET?: string;
  VAPID_PRIVATE_KEY?: string;
}

/**
 * The staff passwords of the deployment that users would be refused (the common-password list; the
 * length is checked with the value): production refuses to start with one, development warns
 * (`main.ts`). One problem per password, naming its variable and account, never the password.
 */
export function staffPasswordProblems(
  config: Pick<ProductionSettings, 'ADMIN_USERNAME' | 'ADMIN_PASSWORD' | 'STAFF_ACCOUNTS'>,
): { variable: string; message: string }[] {
  const common = 'is one of the 10,000 most common passwords, which users are refused too; choose another';
  const problems: { variable: string; message: string }[] = [];
  if (config.ADMIN_PASSWORD && isCommonPassword(config.ADMIN_PASSWORD))
    problems.push({ variable: 'ADMIN_PASSWORD', message: `(${config.ADMIN_USERNAME}) ${common}` });
  (config.STAFF_ACCOUNTS ?? []).forEach((account, index) => {
    if (isCommonPassword(account.password))
      problems.push({
        variable: 'STAFF_ACCOUNTS',
        message: `entry ${index + 1} (${account.username}): the password ${common}`,
      });
  });
  return problems;
}

/** Domains that can never receive mail or be reached from the public internet (RFC 2606, RFC 6761, RFC 6762). */
const RESERVED_SUFFIXES = ['.local', '.localhost', '.test', '.example', '.invalid', '.internal', '.lan', '.home.arpa'];
const RESERVED_NAMES = ['localhost', 'example.com', 'example.net', 'example.org'];

function reservedHost(host: string) {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (RESERVED_NAMES.includes(name) || RESERVED_SUFFIXES.some((suffix) => name.endsWith(suffix))) return true;
  if (isIP(name)) return true; // a public site is reached by name (its TLS certificate names it)
  return !name.includes('.');
}

/** The address inside `Name <address>` or the bare address. */
function mailAddress(from: string) {
  const inAngles = /<([^<>]+)>\s*$/.exec(from);
  return (inAngles?.[1] ?? from).trim();
}

export function productionProblems(config: ProductionSettings): { variable: string; message: string }[] {
  if (config.NODE_ENV !== 'production') return [];
  const problems: { variable: string; message: string }[] = [];
  const refuse = (variable: string, message: string) => problems.push({ variable, message });

  if (config.PAYOUT_GATEWAY !== 'razorpayx') {
    refuse(
      'PAYOUT_GATEWAY',
      'is the sandbox, which marks approved withdrawals paid without moving money; set razorpayx in production',
    );
  } else if (config.RAZORPAYX_KEY_ID?.startsWith('rzp_test_')) {
    refuse('RAZORPAYX_KEY_ID', 'is a test-mode key (rzp_test_...), whose payouts move no money; use the live key');
  }
  const sms = config.SIGNUP_CHANNELS.includes('sms');
  const email = config.SIGNUP_CHANNELS.includes('email');
  if (sms && config.SMS_PROVIDER.includes('sandbox')) {
    refuse(
      'SMS_PROVIDER',
      'is the sandbox, which sends no SMS; set msg91 and/or twilio, or SIGNUP_CHANNELS=email for an e-mail-only service',
    );
  }
  if (email && !config.SMTP_URL) {
    refuse(
      'SMTP_URL',
      'is not set, so no e-mail would be sent; set the mail server, or SIGNUP_CHANNELS=sms for a phone-only service',
    );
  }
  if (email) {
    const address = mailAddress(config.SMTP_FROM);
    const domain = /^[^@\s]+@([^@\s]+)$/.exec(address)?.[1];
    if (!domain || reservedHost(domain)) {
      refuse('SMTP_FROM', `is "${config.SMTP_FROM}"; set an address on a real domain you send mail from`);
    }
  }
  if (config.LINK_PROVIDER !== 'manual') {
    refuse(
      'LINK_PROVIDER',
      'is the sandbox; set LINK_PROVIDER=manual to say that operators confirm linked-account statuses by hand',
    );
  }
  let publicUrl: URL | undefined;
  try {
    publicUrl = config.PUBLIC_URL ? new URL(config.PUBLIC_URL) : undefined;
  } catch {
    publicUrl = undefined;
  }
  if (!publicUrl) {
    refuse('PUBLIC_URL', 'is not set; set the https address users and gateways reach the service at');
  } else if (publicUrl.protocol !== 'https:' || reservedHost(publicUrl.hostname)) {
    refuse('PUBLIC_URL', `is ${config.PUBLIC_URL}; it must be an https URL on a public domain name`);
  }
  if (!config.METRICS_TOKEN) {
    refuse('METRICS_TOKEN', 'is not set; /metrics would be open to anyone (at least 16 characters)');
  }
  for (const p of staffPasswordProblems(config)) refuse(p.variable, p.message);
  // Keys whose copy beside the data they protect would defeat them (docs/decisions/keys-outside-the-database.md).
  if (!config.IDENTITY_HASH_SECRET) {
    refuse(
      'IDENTITY_HASH_SECRET',
      'is not set; the identity hashes would be keyed by a secret kept in the database, so a copy of it alone recovers every deleted phone (at least 16 characters)',
    );
  }
  if (!config.UPLOAD_URL_SECRET) {
    refuse(
      'UPLOAD_URL_SECRET',
      'is not set; upload links would be signed by a secret kept in the database, so a copy of it alone opens every proof screenshot (at least 16 characters)',
    );
  }
  if (!config.VAPID_PRIVATE_KEY) {
    refuse(
      'VAPID_PRIVATE_KEY',
      'is not set (with VAPID_PUBLIC_KEY); a key pair kept in the database lets a copy of it push messages to every subscriber as Kamai',
    );
  }
  return problems;
}

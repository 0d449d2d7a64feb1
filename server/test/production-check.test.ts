import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/platform/config';
import { PRODUCTION_ENV as GOOD } from './production-env';
import { startRazorpayxFake } from './razorpayx-fake';

function problems(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message.split('\n').slice(1);
  }
}

describe('NODE_ENV=production refuses the sandboxes', () => {
  it('starts with every real provider configured', () => {
    expect(problems(GOOD)).toEqual([]);
    expect(loadConfig(GOOD).SIGNUP_CHANNELS).toEqual(['sms', 'email']);
  });

  const refusals: [string, Record<string, string | undefined>, RegExp][] = [
    ['payouts through the sandbox', { PAYOUT_GATEWAY: undefined }, /^ {2}PAYOUT_GATEWAY: is the sandbox/],
    [
      'a RazorpayX test-mode key',
      { RAZORPAYX_KEY_ID: 'rzp_test_Kamai1234' },
      /^ {2}RAZORPAYX_KEY_ID: is a test-mode key/,
    ],
    ['SMS through the sandbox', { SMS_PROVIDER: undefined }, /^ {2}SMS_PROVIDER: is the sandbox/],
    ['no mail server', { SMTP_URL: undefined }, /^ {2}SMTP_URL: is not set/],
    ['the default sender on .local', { SMTP_FROM: undefined }, /^ {2}SMTP_FROM: is "Kamai <no-reply@kamai.local>"/],
    ['a sender without a domain', { SMTP_FROM: 'root@localhost' }, /^ {2}SMTP_FROM:/],
    ['the linked-account sandbox', { LINK_PROVIDER: undefined }, /^ {2}LINK_PROVIDER: is the sandbox/],
    ['no PUBLIC_URL', { PUBLIC_URL: undefined }, /^ {2}PUBLIC_URL: is not set/],
    ['a plain-http PUBLIC_URL', { PUBLIC_URL: 'http://kamai.in' }, /^ {2}PUBLIC_URL: is http:\/\/kamai.in/],
    ['a PUBLIC_URL on localhost', { PUBLIC_URL: 'https://localhost:8443' }, /^ {2}PUBLIC_URL: is https:\/\/localhost/],
    ['a PUBLIC_URL on an IP address', { PUBLIC_URL: 'https://10.0.0.5' }, /^ {2}PUBLIC_URL:/],
    ['no METRICS_TOKEN', { METRICS_TOKEN: undefined }, /^ {2}METRICS_TOKEN: is not set/],
    [
      'a common ADMIN_PASSWORD',
      { ADMIN_USERNAME: 'ops@kamai.in', ADMIN_PASSWORD: '123456' },
      /^ {2}ADMIN_PASSWORD: \(ops@kamai\.in\) is one of the 10,000 most common passwords/,
    ],
    [
      'a common password in STAFF_ACCOUNTS',
      { STAFF_ACCOUNTS: '[{"username":"rev@kamai.in","password":"qwerty123","role":"reviewer"}]' },
      /^ {2}STAFF_ACCOUNTS: entry 1 \(rev@kamai\.in\): the password is one of the 10,000 most common/,
    ],
    ['no IDENTITY_HASH_SECRET', { IDENTITY_HASH_SECRET: undefined }, /^ {2}IDENTITY_HASH_SECRET: is not set/],
    ['no UPLOAD_URL_SECRET', { UPLOAD_URL_SECRET: undefined }, /^ {2}UPLOAD_URL_SECRET: is not set/],
    [
      'no VAPID key pair',
      { VAPID_PUBLIC_KEY: undefined, VAPID_PRIVATE_KEY: undefined },
      /^ {2}VAPID_PRIVATE_KEY: is not set/,
    ],
  ];
  for (const [what, change, line] of refusals) {
    it(`refuses ${what}, in one line naming the variable`, () => {
      const found = problems({ ...GOOD, ...change });
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(line);
    });
  }

  it('lists every problem at once with nothing but NODE_ENV set', () => {
    const found = problems({ NODE_ENV: 'production' });
    for (const name of [
      'PAYOUT_GATEWAY',
      'SMS_PROVIDER',
      'SMTP_URL',
      'SMTP_FROM',
      'LINK_PROVIDER',
      'PUBLIC_URL',
      'METRICS_TOKEN',
      'IDENTITY_HASH_SECRET',
      'UPLOAD_URL_SECRET',
      'VAPID_PRIVATE_KEY',
    ]) {
      expect(found.filter((l) => l.startsWith(`  ${name}:`))).toHaveLength(1);
    }
  });

  it('an e-mail-only service needs no SMS provider, a phone-only one no mail server', () => {
    expect(problems({ ...GOOD, SIGNUP_CHANNELS: 'email', SMS_PROVIDER: undefined })).toEqual([]);
    expect(problems({ ...GOOD, SIGNUP_CHANNELS: 'sms', SMTP_URL: undefined, SMTP_FROM: undefined })).toEqual([]);
    expect(problems({ ...GOOD, SIGNUP_CHANNELS: 'fax' })[0]).toMatch(/^ {2}SIGNUP_CHANNELS/);
  });

  it('outside production the sandboxes are allowed', () => {
    expect(problems({ NODE_ENV: 'development' })).toEqual([]);
    expect(problems({})).toEqual([]);
  });
});

describe('the server process under NODE_ENV=production', () => {
  const main = resolve(dirname(fileURLToPath(import.meta.url)), '../src/main.ts');

  /** Runs src/main.ts with only `env` (and PATH) until it exits or prints "ready"; its output. */
  function run(env: Record<string, string>) {
    return new Promise<{ code: number | null; stderr: string; ready: boolean }>((done) => {
      const child = spawn(process.execPath, ['--import', 'tsx', main], {
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (chunk) => {
        stderr += String(chunk);
      });
      child.stdout.on('data', (chunk) => {
        stdout += String(chunk);
        if (stdout.includes('"msg":"ready"')) child.kill('SIGTERM');
      });
      child.on('exit', (code) => done({ code, stderr, ready: stdout.includes('"msg":"ready"') }));
    });
  }

  it('prints every missing variable and exits non-zero with the sandboxes', async () => {
    const result = await run({ NODE_ENV: 'production', PORT: '0' });
    expect(result.ready).toBe(false);
    expect(result.code).not.toBe(0);
    for (const name of [
      'PAYOUT_GATEWAY',
      'SMS_PROVIDER',
      'SMTP_URL',
      'SMTP_FROM',
      'LINK_PROVIDER',
      'PUBLIC_URL',
      'METRICS_TOKEN',
      'IDENTITY_HASH_SECRET',
      'UPLOAD_URL_SECRET',
      'VAPID_PRIVATE_KEY',
    ]) {
      expect(result.stderr).toContain(`  ${name}: `);
    }
  });

  it('starts with every setting given, against local fakes', { timeout: 180_000 }, async () => {
    const fake = await startRazorpayxFake({
      keyId: GOOD.RAZORPAYX_KEY_ID as string,
      keySecret: GOOD.RAZORPAYX_KEY_SECRET as string,
      accountNumber: GOOD.RAZORPAYX_ACCOUNT_NUMBER as string,
      webhookSecret: GOOD.RAZORPAYX_WEBHOOK_SECRET as string,
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-production-'));
    try {
      const result = await run({
        ...GOOD,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        RAZORPAYX_BASE_URL: fake.url,
        MSG91_BASE_URL: fake.url,
        SMTP_URL: 'smtp://127.0.0.1:2525',
      });
      expect(result.stderr).toBe('');
      expect(result.ready).toBe(true);
    } finally {
      await fake.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

import { endpoints } from '@kamai/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/platform/config';
import { logLine, type MainRun, mainDatabase, runMain, stopMain } from './main-process';
import { PRODUCTION_ENV } from './production-env';

/**
 * The deployment names its staff (docs/decisions/first-admin.md): ADMIN_USERNAME/ADMIN_PASSWORD and
 * STAFF_ACCOUNTS are created or promoted at start, under the users' password policy.
 */
function refusal(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message.split('\n').slice(1);
  }
}

const staff = (...accounts: unknown[]) => JSON.stringify(accounts);

describe('STAFF_ACCOUNTS in the configuration', () => {
  it('takes a JSON array of {username, password, role}, usernames normalised', () => {
    const config = loadConfig({
      STAFF_ACCOUNTS: staff(
        { username: 'Ops@Kamai.in', password: 'Tr1cky-horse', role: 'admin' },
        { username: '+91 98765 43210', password: 'Qu13t-river', role: 'reviewer' },
      ),
    });
    expect(config.STAFF_ACCOUNTS).toEqual([
      { username: 'ops@kamai.in', password: 'Tr1cky-horse', role: 'admin' },
      { username: '919876543210', password: 'Qu13t-river', role: 'reviewer' },
    ]);
    expect(loadConfig({}).STAFF_ACCOUNTS).toEqual([]);
  });

  const bad: [string, string, RegExp][] = [
    ['bad JSON', '[{"username": "ops@kamai.in",', /^ {2}STAFF_ACCOUNTS: is not valid JSON/],
    ['an object, not an array', staff({}).slice(1, -1), /^ {2}STAFF_ACCOUNTS: must be a JSON array/],
    [
      'a role that is not admin or reviewer',
      staff({ username: 'ops@kamai.in', password: 'Tr1cky-horse', role: 'user' }),
      /^ {2}STAFF_ACCOUNTS\.0\.role: must be admin or reviewer$/,
    ],
    [
      'a username that is neither e-mail nor mobile',
      staff({ username: 'ops', password: 'Tr1cky-horse', role: 'admin' }),
      /^ {2}STAFF_ACCOUNTS\.0\.username: must be an e-mail or Indian mobile$/,
    ],
    [
      'a password the users would be refused for its length',
      staff({ username: 'ops@kamai.in', password: 'Tr1ck', role: 'admin' }),
      /^ {2}STAFF_ACCOUNTS\.0\.password: must be 6 to 20 characters$/,
    ],
    [
      'an unknown field',
      staff({ username: 'ops@kamai.in', password: 'Tr1cky-horse', role: 'admin', email: 'x' }),
      /^ {2}STAFF_ACCOUNTS\.0:/,
    ],
  ];
  for (const [what, value, line] of bad) {
    it(`refuses ${what}, naming the variable`, () => {
      const found = refusal({ STAFF_ACCOUNTS: value });
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(line);
    });
  }

  it('refuses one account named twice, also across ADMIN_USERNAME', () => {
    const found = refusal({
      ADMIN_USERNAME: 'ops@kamai.in',
      ADMIN_PASSWORD: 'Tr1cky-horse',
      STAFF_ACCOUNTS: staff({ username: 'OPS@kamai.in', password: 'Qu13t-river', role: 'reviewer' }),
    });
    expect(found).toEqual(['  STAFF_ACCOUNTS.0.username: ops@kamai.in is named twice (here or in ADMIN_USERNAME)']);
    expect(refusal({ ADMIN_USERNAME: 'ops@kamai.in' })).toEqual([
      '  ADMIN_PASSWORD: ADMIN_USERNAME and ADMIN_PASSWORD must be set together',
    ]);
  });

  it('production refuses a common staff password, naming the variable and the account, never the password', () => {
    const admin = refusal({ ...PRODUCTION_ENV, ADMIN_USERNAME: 'ops@kamai.in', ADMIN_PASSWORD: '123456' });
    expect(admin).toEqual([
      '  ADMIN_PASSWORD: (ops@kamai.in) is one of the 10,000 most common passwords, which users are refused too; choose another',
    ]);
    const listed = refusal({
      ...PRODUCTION_ENV,
      STAFF_ACCOUNTS: staff(
        { username: 'ops@kamai.in', password: 'Tr1cky-horse', role: 'admin' },
        { username: 'rev@kamai.in', password: 'Password1', role: 'reviewer' },
      ),
    });
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatch(/^ {2}STAFF_ACCOUNTS: entry 2 \(rev@kamai\.in\): the password is one of the 10,000/);
    expect(listed[0]).not.toContain('Password1');
    // Outside production the same settings start (main.ts warns).
    expect(refusal({ ADMIN_USERNAME: 'ops@kamai.in', ADMIN_PASSWORD: '123456' })).toEqual([]);
  });
});

describe('the server process and its staff', { timeout: 400_000 }, () => {
  let database: Awaited<ReturnType<typeof mainDatabase>>;
  beforeAll(async () => {
    database = await mainDatabase('staff');
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** The server on this file's database, serving (its output in the failure message otherwise). */
  async function serving(env: Record<string, string>) {
    const run = await runMain({ ...database.env, LOG_LEVEL: 'info', ...env });
    expect(run.url, run.lines.join('\n')).toBeDefined();
    return run;
  }

  async function call(run: MainRun, def: { method: string; path: string }, body?: unknown, token?: string) {
    const res = await fetch(`${run.url}${def.path}`, {
      method: def.method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { key: string; data: Record<string, unknown> } };
  }
  async function login(run: MainRun, username: string, password: string) {
    const res = await call(run, endpoints.login, { username, password });
    return res.status === 200 ? (res.body.data.token as string) : undefined;
  }
  async function roleOf(run: MainRun, username: string, password: string) {
    const token = await login(run, username, password);
    if (!token) return undefined;
    return (await call(run, endpoints.userDetail, undefined, token)).body.data.role;
  }

  it('production refuses ADMIN_PASSWORD=123456 before it opens the database', async () => {
    const run = await runMain({ ...PRODUCTION_ENV, ADMIN_USERNAME: 'ops@kamai.in', ADMIN_PASSWORD: '123456' });
    expect(run.code).toBe(78);
    expect(run.lines).toContain(
      '  ADMIN_PASSWORD: (ops@kamai.in) is one of the 10,000 most common passwords, which users are refused too; choose another',
    );
    expect(run.lines.join('\n')).not.toContain('123456');
  });

  it('creates the configured staff, then promotes an existing one and says its password was not applied', async () => {
    const first = await serving({
      ADMIN_USERNAME: 'chief@kamai.test',
      ADMIN_PASSWORD: 'Ch1ef-of-ops',
      STAFF_ACCOUNTS: staff({ username: 'rev@kamai.test', password: 'R3viewer-one', role: 'reviewer' }),
    });
    try {
      const created = first.lines.map(logLine).filter((l) => l?.msg === 'staff account created');
      expect(created.map((l) => [l?.username, l?.role, l?.variable])).toEqual([
        ['chief@kamai.test', 'admin', 'ADMIN_PASSWORD'],
        ['rev@kamai.test', 'reviewer', 'STAFF_ACCOUNTS'],
      ]);
      // Staff are configured, so no admin is generated and nothing is printed for it.
      expect(first.lines.join('\n')).not.toContain('created the first admin account');
      expect(await roleOf(first, 'rev@kamai.test', 'R3viewer-one')).toBe('reviewer');
      expect(await roleOf(first, 'chief@kamai.test', 'Ch1ef-of-ops')).toBe('admin');
    } finally {
      await stopMain(first);
    }

    // The reviewer becomes an admin from the deployment, the admin is named again; neither new password is
    // applied. Outside production a common one starts, with a warning.
    const second = await serving({
      ADMIN_USERNAME: 'chief@kamai.test',
      ADMIN_PASSWORD: 'Other-pass-9',
      STAFF_ACCOUNTS: staff({ username: 'rev@kamai.test', password: 'password1', role: 'admin' }),
    });
    try {
      const notApplied = second.lines.map(logLine).filter((l) => l?.promoted !== undefined);
      expect(notApplied.map((l) => l?.msg)).toEqual([
        'ADMIN_PASSWORD: the password of chief@kamai.test was NOT applied: the account already exists and keeps its own password',
        'STAFF_ACCOUNTS: the password of rev@kamai.test was NOT applied: the account already exists and keeps its own password (promoted from reviewer to admin)',
      ]);
      expect(notApplied[1]).toMatchObject({
        level: 40,
        username: 'rev@kamai.test',
        previousRole: 'reviewer',
        role: 'admin',
      });
      expect(
        second.lines.map(logLine).find((l) => l?.msg === 'weak staff password (production refuses it)'),
      ).toMatchObject({
        level: 40,
        variable: 'STAFF_ACCOUNTS',
        problem: expect.stringMatching(/^entry 1 \(rev@kamai\.test\): the password is one of the 10,000 most common/),
      });
      expect(await login(second, 'rev@kamai.test', 'password1')).toBeUndefined();
      expect(await login(second, 'chief@kamai.test', 'Other-pass-9')).toBeUndefined();
      expect(await roleOf(second, 'rev@kamai.test', 'R3viewer-one')).toBe('admin');
      // The promotion is in the audit log, by the deployment's variable.
      const token = (await login(second, 'chief@kamai.test', 'Ch1ef-of-ops')) as string;
      const audit = await call(
        second,
        { method: 'GET', path: `${endpoints.adminAuditList.path}?action=user.role` },
        undefined,
        token,
      );
      expect(audit.body.data.items).toMatchObject([
        {
          action: 'user.role',
          actorUsername: 'rev@kamai.test',
          before: { role: 'reviewer' },
          after: { role: 'admin', by: 'STAFF_ACCOUNTS' },
        },
      ]);
    } finally {
      await stopMain(second);
    }
  });
});

import { createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { accountValidations, identityLedger, settings, users } from '../src/db/schema';
import { rehashNumbers } from '../src/features/payout-accounts';
import { createIdentityLedger } from '../src/features/users';
import { loadConfig } from '../src/platform/config';
import { createTestContext, type TestContext } from './helpers';
import { API } from './payout-helpers';

/**
 * Keys outside the database (docs/decisions/keys-outside-the-database.md): with the keys set, no table
 * holds them; the identity-hash key rotates with a window in which the previous key's hashes match.
 */
const OLD_KEY = 'identity-key-old-0123456789';
const NEW_KEY = 'identity-key-new-9876543210';
const hmac = (key: string, value: string) => createHmac('sha256', key).update(value).digest('hex');

/** Every row of every table in the public schema, as text. */
async function everyRow(ctx: TestContext): Promise<string[]> {
  const rowsOf = async <T>(query: ReturnType<typeof sql>) =>
    ((await ctx.db.execute(query)) as unknown as { rows: T[] }).rows;
  const tables = await rowsOf<{ name: string }>(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  const rows: string[] = [];
  for (const { name } of tables) {
    const found = await rowsOf<{ row: string }>(sql.raw(`select t::text as row from "${name}" t`));
    rows.push(...found.map((r) => `${name}: ${r.row}`));
  }
  return rows;
}

describe('keys given in the environment never reach the database', () => {
  const keys = {
    IDENTITY_HASH_SECRET: 'identity-key-set-0123456789',
    UPLOAD_URL_SECRET: 'upload-url-key-set-0123456789',
    VAPID_PUBLIC_KEY: 'BMnbRe0OT_nD54ULXTzQiuGFxWcZ5bDWCX-CBBgsG053fRWkyHLr5RKhbV_mWdXse2iZHFukVyCN6Ig80Fa92xU',
    VAPID_PRIVATE_KEY: '5TBz0oxWjaqrPxBKqcKRf6mi9dRr4o7aQ8ldMjVzmJ8',
  };
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(keys);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('hashes with the given key and stores none of the keys in any table', async () => {
    const user = await ctx.newUser();
    expect(await ctx.get(`${API}/common/push/key`).then((r) => r.status)).toBeLessThan(500);
    const deleted = await ctx.post(`${API}/user/account/delete`, { password: user.password }, { token: user.token });
    expect(deleted.status).toBe(200);
    const [row] = await ctx.db
      .select()
      .from(identityLedger)
      .where(eq(identityLedger.hash, hmac(keys.IDENTITY_HASH_SECRET, user.username)));
    expect(row).toBeDefined();
    const rows = await everyRow(ctx);
    expect(rows.length).toBeGreaterThan(10);
    for (const secret of Object.values(keys).filter((k) => k !== keys.VAPID_PUBLIC_KEY)) {
      expect(rows.filter((r) => r.includes(secret))).toEqual([]);
    }
    const stored = await ctx.db.select({ key: settings.key }).from(settings);
    expect(stored.map((s) => s.key)).not.toContain('identity_hash_secret');
    expect(stored.map((s) => s.key)).not.toContain('upload_url_secret');
    expect(stored.map((s) => s.key)).not.toContain('vapid_keys');
  });
});

describe('development keeps its generated key', () => {
  it('keeps a generated identity key in settings when IDENTITY_HASH_SECRET is unset', async () => {
    const ctx = await createTestContext();
    try {
      await ctx.newUser();
      const [row] = await ctx.db.select().from(settings).where(eq(settings.key, 'identity_hash_secret'));
      expect(typeof row?.value).toBe('string');
    } finally {
      await ctx.close();
    }
  });
});

describe('rotating the identity-hash key', () => {
  let ctx: TestContext;
  const apps: FastifyInstance[] = [];
  beforeAll(async () => {
    ctx = await createTestContext({ IDENTITY_HASH_SECRET: OLD_KEY });
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await ctx.close();
  });

  /** The same database served with other identity keys (a restart with changed settings). */
  async function restart(env: Record<string, string>) {
    const config = loadConfig({ LOG_LEVEL: 'silent', AUTH_CODE_FAILURE_DELAY_MS: '0', ...env });
    const { app } = await buildApp({ config, database: ctx.database, now: ctx.now });
    await app.ready();
    apps.push(app);
    const post = async (url: string, body: object, token?: string) => {
      const res = await app.inject({
        method: 'POST',
        url,
        payload: body,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      return { status: res.statusCode, body: res.json() };
    };
    return {
      config,
      post,
      /** Registers `phone` (10 digits); whether the account is a returning identity. */
      async register(phone: string) {
        expect((await post(`${API}/common/otp/send`, { target: phone, type: 1 })).status).toBe(200);
        const verifyCode = await ctx.lastCode(`91${phone}`);
        const res = await post(`${API}/common/user/register`, {
          username: phone,
          password: 'secret123',
          password2: 'secret123',
          verifyCode,
          inviteCode: ctx.admin.inviteCode,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const [row] = await ctx.db
          .select({ returning: users.returningIdentity })
          .from(users)
          .where(eq(users.username, `91${phone}`));
        return { token: res.body.data.token as string, returning: row?.returning };
      },
    };
  }

  const inLedger = async (hash: string) =>
    (await ctx.db.select().from(identityLedger).where(eq(identityLedger.hash, hash))).length === 1;

  it('matches old hashes during the window, moves them, and matches them after it', async () => {
    // Under the old key: a live account and a deleted one.
    const live = await ctx.newUser();
    const gone = await ctx.newUser();
    const forgotten = await ctx.newUser();
    for (const user of [gone, forgotten]) {
      const res = await ctx.post(`${API}/user/account/delete`, { password: user.password }, { token: user.token });
      expect(res.status).toBe(200);
    }
    expect(await inLedger(hmac(OLD_KEY, live.username))).toBe(true);
    // The live account's UPI check: its number's keyed hash is under the old key too.
    const vpa = `keys.${live.id}@okaxis`;
    const bound = await ctx.post(
      `${API}/user/wdaccount/bind`,
      { accountNo: vpa, accountName: 'Key Test' },
      { token: live.token },
    );
    expect(bound.status).toBe(200);
    const numberHash = async () =>
      (
        await ctx.db
          .select({ hash: accountValidations.numberHash })
          .from(accountValidations)
          .where(eq(accountValidations.requestedBy, live.id))
      ).map((row) => row.hash);
    expect(await numberHash()).toEqual([hmac(OLD_KEY, `payout-account:upi::${vpa}`)]);

    // The rotation: a new key, the old one as previous.
    const rotating = await restart({ IDENTITY_HASH_SECRET: NEW_KEY, IDENTITY_HASH_SECRET_PREVIOUS: OLD_KEY });
    expect(rotating.config.IDENTITY_HASH_SECRET_PREVIOUS).toEqual([OLD_KEY]);
    // A deleted phone hashed with the old key still matches, and the match moves it to the new key.
    expect((await rotating.register(gone.username.slice(2))).returning).toBe(true);
    expect(await inLedger(hmac(OLD_KEY, gone.username))).toBe(false);
    expect(await inLedger(hmac(NEW_KEY, gone.username))).toBe(true);

    // The re-hash moves every live identity.
    const ledger = createIdentityLedger(ctx.db, NEW_KEY, [OLD_KEY]);
    expect(await ledger.rehash()).toBeGreaterThanOrEqual(1);
    expect(await inLedger(hmac(OLD_KEY, live.username))).toBe(false);
    expect(await inLedger(hmac(NEW_KEY, live.username))).toBe(true);
    expect(await ledger.rehash()).toBe(0);
    // The start's re-hash also moves live checks' number hashes, so the shared-number signal compares
    // hashes under one key.
    expect(await rehashNumbers(ctx.db, ledger.hashOf)).toBeGreaterThanOrEqual(1);
    expect(await numberHash()).toEqual([hmac(NEW_KEY, `payout-account:upi::${vpa}`)]);
    expect(await rehashNumbers(ctx.db, ledger.hashOf)).toBe(0);

    // After the window: the live account's phone, deleted now, still matches under the new key alone.
    const after = await restart({ IDENTITY_HASH_SECRET: NEW_KEY });
    const res = await after.post(`${API}/user/account/delete`, { password: live.password }, live.token);
    expect(res.status).toBe(200);
    expect((await after.register(live.username.slice(2))).returning).toBe(true);
    // A deleted identity that did not come back during the window cannot be re-keyed (its phone is
    // gone): under the new key alone it is not recognised (docs/operations.md says so).
    expect((await after.register(forgotten.username.slice(2))).returning).toBe(false);
  });
});

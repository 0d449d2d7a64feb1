import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, dropRedisKeys, type Instance, startInstance } from './cluster';
import { type Node, standbyBinaries, startPrimaryAndStandby } from './pg-standby';

/**
 * Read replicas with real parts (docs/decisions/read-replicas.md): the test's own PostgreSQL primary and a
 * streaming standby made by `pg_basebackup -R`, a Kamai server on both (recent writers in Redis). The
 * console's notice list is a read that may be stale: it is served by the standby (its
 * pg_stat_statements and the server's metrics say so); the operator who just added a notice reads the
 * primary and sees it; with replay paused the standby falls behind and is skipped, and the answers stay
 * current; a stopped standby sends every read to the primary without one error.
 */
const missing = standbyBinaries();
if (missing.length > 0) {
  if (process.env.CI === 'true') throw new Error(`the replica test needs ${missing.join(', ')}`);
  console.warn(`replica test skipped: ${missing.join(', ')} not installed`);
}

const COMMON = '/go_user/api/v1/common';
const ADMIN = '/go_user/api/v1/admin';
const WRITER = { username: 'writer@kamai.test', password: 'operator-1' };
const READER = { username: 'reader@kamai.test', password: 'operator-2' };
const MAX_LAG_MS = 1_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The server's samples of one metric, keyed by their label text (`target="replica",...`). */
async function metric(base: string, name: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${name}(?:\\{(.*)\\})? (\\S+)$`).exec(line);
    if (match) found.set(match[1] ?? '', Number(match[2]));
  }
  return found;
}

async function reads(base: string) {
  const all = await metric(base, 'kamai_db_reads_total');
  const sum = (test: (labels: string) => boolean) =>
    [...all].filter(([labels]) => test(labels)).reduce((total, [, n]) => total + n, 0);
  return {
    replica: sum((l) => l.includes('target="replica"')),
    recentWrite: sum((l) => l.includes('reason="recent_write"')),
    noReplica: sum((l) => l.includes('reason="no_replica"')),
    replicaFailed: sum((l) => l.includes('reason="replica_failed"')),
  };
}

async function until(what: string, ok: () => Promise<boolean>, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await ok().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not in ${ms} ms`);
    await sleep(100);
  }
}

describe.skipIf(missing.length > 0)('read replicas: a real streaming standby, lagged and stopped', () => {
  let nodes: Awaited<ReturnType<typeof startPrimaryAndStandby>>;
  let primary: Node;
  let standby: Node;
  let instance: Instance;
  let writer = '';
  let reader = '';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `kamai-replicas-${process.pid}-${Date.now()}:`;

  const noticeTitles = async (token: string) => {
    const answer = await api(instance.url, 'GET', `${ADMIN}/notice/list?limit=50`, { token });
    expect(answer.status).toBe(200);
    return (answer.body.data.items as { title: string }[]).map((n) => n.title);
  };
  const addNotice = async (title: string) => {
    const added = await api(instance.url, 'POST', `${ADMIN}/notice/add`, { token: writer, body: { title, body: 'b' } });
    expect(added.status).toBe(200);
  };
  /** How many times the standby ran the console's notice list (pg_stat_statements on the standby). */
  const standbyNoticeLists = async () => {
    const rows = await standby.query<{ calls: string }>(
      `select coalesce(sum(calls), 0)::text as calls from pg_stat_statements where query ilike '%from "notices"%'`,
    );
    return Number(rows[0]?.calls ?? 0);
  };
  const replicaLag = async () => [...(await metric(instance.url, 'kamai_db_replica_lag_seconds')).values()][0];

  beforeAll(async () => {
    if (missing.length > 0) return;
    // Recent writers are kept in Redis when it answers (CI starts it), else in the one process.
    const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1_000 });
    redis.on('error', () => undefined);
    const withRedis = await redis.connect().then(
      () => true,
      () => false,
    );
    redis.disconnect();
    if (!withRedis && process.env.CI === 'true') throw new Error(`Redis does not answer at ${redisUrl}`);
    nodes = await startPrimaryAndStandby();
    primary = nodes.primary;
    standby = nodes.standby;
    instance = await startInstance({
      DATABASE_URL: primary.url,
      DATABASE_REPLICA_URLS: standby.url,
      DATABASE_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
      DATABASE_POOL_SIZE: '4',
      ...(withRedis ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix } : {}),
      ADMIN_USERNAME: WRITER.username,
      ADMIN_PASSWORD: WRITER.password,
      STAFF_ACCOUNTS: JSON.stringify([{ ...READER, role: 'admin' }]),
      INVITE_CODE_REQUIRED: 'false',
      // The scrape's ledger check is a read that may be stale too: once, at the first scrape, so the
      // counts this test compares are its own reads only.
      METRICS_LEDGER_CHECK_SECONDS: '86400',
    });
    writer = (await api(instance.url, 'POST', `${COMMON}/user/login`, { body: WRITER })).body.data.token;
    reader = (await api(instance.url, 'POST', `${COMMON}/user/login`, { body: READER })).body.data.token;
    expect(writer && reader).toBeTruthy();
    // The migrations reached the standby and its first checks found it caught up.
    await until('standby caught up', async () => (await replicaLag()) === 0);
  });

  afterAll(async () => {
    await instance?.stop();
    await nodes?.stop();
    if (missing.length === 0) await dropRedisKeys(redisUrl, prefix).catch(() => undefined);
  });

  it('serves the console list from the standby, and the writer reads the primary right after writing', async () => {
    const before = await reads(instance.url);
    const ranOnStandby = await standbyNoticeLists();
    await noticeTitles(reader);
    const after = await reads(instance.url);
    expect(after.replica).toBe(before.replica + 1);
    expect(await standbyNoticeLists()).toBeGreaterThan(ranOnStandby);

    await addNotice('Written just now');
    expect(await noticeTitles(writer)).toContain('Written just now');
    const mine = await reads(instance.url);
    expect(mine.recentWrite).toBe(after.recentWrite + 1);
    expect(mine.replica).toBe(after.replica);
  });

  it('serves the withdrawals, account checks, proofs, complaints, payout mismatches and audit queues from the standby, one read each', async () => {
    for (const path of [
      'withdraw/list?limit=20',
      'account-check/list?limit=20',
      'task/proof/list?limit=20',
      'complaint/list?limit=20',
      'payout/mismatches?limit=20',
      'audit/list?limit=20',
    ]) {
      const before = await reads(instance.url);
      const answer = await api(instance.url, 'GET', `${ADMIN}/${path}`, { token: reader });
      expect(answer.status, path).toBe(200);
      expect((await reads(instance.url)).replica, path).toBe(before.replica + 1);
    }
  });

  it("serves a user's notice list from the standby, and from the primary right after they opened a notice", async () => {
    const typed = `97${String(process.pid % 10_000).padStart(4, '0')}${String(Date.now() % 10_000).padStart(4, '0')}`;
    expect((await api(instance.url, 'POST', `${COMMON}/otp/send`, { body: { target: typed } })).status).toBe(200);
    const [otp] = await primary.query<{ code: string }>(
      'select code from otp_outbox where target = $1 order by id desc limit 1',
      [`91${typed}`],
    );
    const registered = await api(instance.url, 'POST', `${COMMON}/user/register`, {
      body: { username: typed, password: 'secret123', password2: 'secret123', verifyCode: otp?.code },
    });
    expect(registered.status).toBe(200);
    const token = registered.body.data.token as string;
    // Registration is a public request: nothing is recorded for the new user.
    await addNotice('For the new user');
    await until(
      'the notice on the standby',
      async () => (await standby.query(`select 1 from notices where title = 'For the new user'`)).length > 0,
    );
    const inbox = async () => {
      const answer = await api(instance.url, 'GET', `${COMMON}/notice/list?limit=50`, { token });
      expect(answer.status).toBe(200);
      return answer.body.data.items as { id: number; kind: string; title: string; read: boolean }[];
    };
    const before = await reads(instance.url);
    const notice = (await inbox()).find((n) => n.title === 'For the new user');
    expect(notice).toMatchObject({ kind: 'notice', read: false });
    const listed = await reads(instance.url);
    expect(listed.replica).toBe(before.replica + 1);

    const opened = await api(instance.url, 'GET', `${COMMON}/notice/detail?id=${notice?.id}&kind=notice`, { token });
    expect(opened.status).toBe(200);
    expect((await inbox()).find((n) => n.id === notice?.id)).toMatchObject({ read: true });
    const after = await reads(instance.url);
    expect(after.recentWrite).toBe(listed.recentWrite + 1);
    expect(after.replica).toBe(listed.replica);
  });

  it('skips a standby whose replay is paused, and answers stay current', async () => {
    await standby.query('select pg_wal_replay_pause()');
    try {
      await addNotice('Written while the standby is paused');
      // The standby never replays the notice: only the primary has it.
      expect(await standby.query(`select 1 from notices where title = 'Written while the standby is paused'`)).toEqual(
        [],
      );
      await until('lag past the limit', async () => ((await replicaLag()) ?? 0) * 1000 > MAX_LAG_MS);
      const before = await reads(instance.url);
      for (let i = 0; i < 5; i++) expect(await noticeTitles(reader)).toContain('Written while the standby is paused');
      const after = await reads(instance.url);
      expect(after.noReplica).toBe(before.noReplica + 5);
      expect(after.replica).toBe(before.replica);
    } finally {
      await standby.query('select pg_wal_replay_resume()');
    }
    await until('standby caught up again', async () => (await replicaLag()) === 0);
    const before = await reads(instance.url);
    expect(await noticeTitles(reader)).toContain('Written while the standby is paused');
    expect((await reads(instance.url)).replica).toBe(before.replica + 1);
  });

  it('falls back to the primary with no error when the standby stops', async () => {
    const before = await reads(instance.url);
    await standby.stop('immediate');
    // Reads at once (the checks have not noticed yet) and for a few seconds after: every one answers.
    const statuses: number[] = [];
    const deadline = Date.now() + 3_000;
    while (Date.now() < deadline) {
      const answer = await api(instance.url, 'GET', `${ADMIN}/notice/list?limit=50`, { token: reader });
      statuses.push(answer.status);
      expect(answer.body.data?.items?.map((n: { title: string }) => n.title)).toContain('Written just now');
    }
    expect(new Set(statuses)).toEqual(new Set([200]));
    const after = await reads(instance.url);
    expect(after.replica).toBe(before.replica);
    expect(after.noReplica + after.replicaFailed).toBe(before.noReplica + before.replicaFailed + statuses.length);
    expect([...(await metric(instance.url, 'kamai_db_replica_up')).values()]).toEqual([0]);
    const ledger = await api(instance.url, 'GET', `${ADMIN}/ledger/check`, { token: reader });
    expect(ledger).toMatchObject({ status: 200, body: { data: { ok: true } } });
  });
});

import { readFileSync } from 'node:fs';
import { API, BENCH_ADMIN, call, controlled, login, MANY_USERS_ENV } from './lib/api';
import type { BenchContext, Benchmark } from './lib/bench';
import { type LoadRequest, type LoadResult, runLoad } from './lib/load';
import { BENCH_WITHDRAWAL_SETTINGS, customTasks, fundedUsers, okRate, Supply, WITHDRAW_AMOUNT } from './lib/money';
import { freshDatabase } from './lib/postgres';
import { type Running, startServer } from './lib/processes';
import { median, progress, type Row } from './lib/report';

const READ_P99_MS = 25;
const WRITE_P99_MS = 50;
const RSS_MAX_GROWTH = 1.1;
/** The sandbox gateway reports each payout this long after dispatch (its callback is real HTTP). */
const PAYOUT_DELAY_MS = 200;
/** Share of the traffic that writes (half withdraw/add, half task/finish); the rest reads. */
const WRITE_SHARE = 0.3;

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? 0) * 1024;
}

function count5xx(results: LoadResult[]): number {
  let n = 0;
  for (const r of results) for (const [code, c] of Object.entries(r.statuses)) if (code.startsWith('5')) n += c;
  return n;
}

/** Approves pending withdrawals (every tenth rejected) as an admin would, until stopped. */
function reviewer(base: string, token: string) {
  let stopped = false;
  const statuses: Record<string, number> = {};
  let reviewed = 0;
  const review = async (id: number) => {
    const body = reviewed % 10 === 9 ? { id, action: 'reject', reason: 'soak' } : { id, action: 'approve' };
    reviewed += 1;
    const res = await fetch(`${base}${API}/admin/withdraw/review`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  };
  const loop = (async () => {
    while (!stopped) {
      const res = await fetch(`${base}${API}/admin/withdraw/list?state=pending&limit=100`, {
        headers: { authorization: `Bearer ${token}` },
      });
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      const page = res.ok ? ((await res.json()) as { data: { items: { id: number }[] } }).data.items : [];
      for (let i = 0; i < page.length; i += 4) await Promise.all(page.slice(i, i + 4).map((w) => review(w.id)));
      if (page.length < 100) await new Promise((r) => setTimeout(r, 500));
    }
  })();
  return {
    statuses,
    reviewed: () => reviewed,
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

async function soakOn(ctx: BenchContext, server: Running): Promise<Row[]> {
  const base = server.url;
  const chunks = ctx.smoke ? 3 : (ctx.soakMinutes ?? 10);
  const chunkSec = ctx.smoke ? 1 : 60;
  const users = ctx.smoke ? 10 : 150;
  const tasks = ctx.smoke ? 20 : 100;
  // Error lines (level 50+) and failed jobs in the server's log over the whole run (LOG_LEVEL=warn).
  const logged = { errors: 0, jobFailures: 0 };
  const scan = (chunk: Buffer) => {
    const text = chunk.toString();
    logged.errors += text.match(/"level":(50|60)/g)?.length ?? 0;
    logged.jobFailures += text.match(/"msg":"job failed"/g)?.length ?? 0;
  };
  server.child.stdout?.on('data', scan);
  server.child.stderr?.on('data', scan);
  const admin = await login(base, BENCH_ADMIN.username, BENCH_ADMIN.password);
  await controlled(base, `${API}/admin/settings/set`, { withdrawal: BENCH_WITHDRAWAL_SETTINGS }, admin);
  const funded = await fundedUsers(base, admin, users);
  const taskIds = await customTasks(base, admin, tasks);
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const json = (token: string) => ({ ...auth(token), 'content-type': 'application/json' });
  const reads: LoadRequest[] = [];
  for (const u of funded) {
    for (const path of ['user/user/detail', 'user/task/list', 'user/balance/list', 'user/withdraw/list']) {
      reads.push({ method: 'GET', path: `${API}/${path}`, headers: auth(u.token) });
    }
  }
  // Withdrawals and task finishes interleaved, user varying fastest (different users in flight).
  const writeList: LoadRequest[] = [];
  for (let n = 0; n < Math.max(BENCH_WITHDRAWAL_SETTINGS.dailyCount, taskIds.length); n += 1) {
    for (const u of funded) {
      if (n < BENCH_WITHDRAWAL_SETTINGS.dailyCount) {
        writeList.push({
          method: 'POST',
          path: `${API}/user/withdraw/add`,
          headers: json(u.token),
          body: JSON.stringify({ amount: WITHDRAW_AMOUNT }),
        });
      }
      const taskId = taskIds[n];
      if (taskId !== undefined) {
        writeList.push({
          method: 'POST',
          path: `${API}/user/task/finish`,
          headers: json(u.token),
          body: JSON.stringify({ taskId }),
        });
      }
    }
  }
  const writes = new Supply('soak writes', writeList);

  // Peak of the mix: reads and writes at once, as fast as answered, for one run, with the admin
  // reviewing and the sandbox paying meanwhile (each withdrawal brings a review, a dispatch and a
  // callback: left out, half of the peak would be more than half of what the server can do).
  progress(`peak of the mix (${ctx.seconds} s), the admin reviewing meanwhile`);
  const peakConnections = ctx.smoke ? 4 : 32;
  const writeConnections = Math.max(1, Math.round(peakConnections * WRITE_SHARE));
  const peakReview = reviewer(base, admin);
  const [peakReads, peakWrites] = await Promise.all([
    runLoad({
      url: base,
      connections: peakConnections - writeConnections,
      durationSec: ctx.seconds,
      requests: reads,
      spread: true,
    }),
    runLoad({
      url: base,
      connections: writeConnections,
      durationSec: ctx.seconds,
      requests: writes.next(),
      spread: true,
    }),
  ]);
  await peakReview.stop();
  writes.used(peakWrites, writeConnections);
  const peak = okRate(peakReads) + okRate(peakWrites);
  const rate = Math.max(2, Math.round(peak / 2));
  const writeRate = Math.max(1, Math.round(rate * WRITE_SHARE));
  const readRate = rate - writeRate;
  const neededWrites = writeRate * chunkSec * chunks;
  if (writes.left() < neededWrites) {
    progress(`only ${writes.left()} writes prepared for ${neededWrites}: the last ones will be refused (409s)`);
  }

  progress(
    `soak: ${chunks} × ${chunkSec} s at ${rate} req/s (half of the mix's peak ${peak.toFixed(0)}): ${readRate} reads, ${writeRate} writes; an admin reviews, the sandbox pays after ${PAYOUT_DELAY_MS} ms`,
  );
  const pid = server.child.pid as number;
  const rss: number[][] = [];
  let chunk = 0;
  const sampler = setInterval(() => {
    rss[chunk] ??= [];
    rss[chunk]?.push(rssBytes(pid));
  }, 1000);
  const review = reviewer(base, admin);
  for (const [code, n] of Object.entries(peakReview.statuses)) review.statuses[code] = (review.statuses[code] ?? 0) + n;
  const readRuns: LoadResult[] = [];
  const writeRuns: LoadResult[] = [];
  try {
    for (chunk = 0; chunk < chunks; chunk += 1) {
      const [r, w] = await Promise.all([
        runLoad({ url: base, connections: 16, rate: readRate, durationSec: chunkSec, requests: reads }),
        runLoad({
          url: base,
          connections: 16,
          rate: writeRate,
          durationSec: chunkSec,
          requests: writes.next().slice(0, writeRate * chunkSec + 1),
        }),
      ]);
      writes.used(w, 0);
      readRuns.push(r);
      writeRuns.push(w);
      progress(
        `${chunk + 1}/${chunks}: reads p99 ${r.p99.toFixed(1)} ms, writes p99 ${w.p99.toFixed(1)} ms, RSS ${(median(rss[chunk] ?? []) / 2 ** 20).toFixed(0)} MB, ${review.reviewed()} reviewed`,
      );
    }
  } finally {
    clearInterval(sampler);
    await review.stop();
  }

  // Let the payouts of the last approvals finish (the job worker may have a backlog), then check the books.
  const openPayouts = async () => {
    let n = 0;
    for (const state of ['approved', 'processing']) {
      let cursor: string | null = null;
      do {
        const page: { items: unknown[]; nextCursor: string | null } = await call(
          base,
          'GET',
          `${API}/admin/withdraw/list?state=${state}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          undefined,
          admin,
        );
        n += page.items.length;
        cursor = page.nextCursor;
      } while (cursor);
    }
    return n;
  };
  const waitStarted = performance.now();
  const openAtEnd = await openPayouts();
  let open = openAtEnd;
  while (open > 0 && performance.now() - waitStarted < (ctx.smoke ? 5000 : 180_000)) {
    await new Promise((r) => setTimeout(r, 1000));
    open = await openPayouts();
  }
  const drainSec = (performance.now() - waitStarted) / 1000;
  const paid = await call<{ items: unknown[]; nextCursor: string | null }>(
    base,
    'GET',
    `${API}/admin/withdraw/list?state=paid&limit=1`,
    undefined,
    admin,
  );
  const dashboard = await call<{ ledger: { ok: boolean; problemCount: number } }>(
    base,
    'GET',
    `${API}/admin/dashboard`,
    undefined,
    admin,
  );
  const serverErrors = logged.errors;
  const jobFailures = logged.jobFailures;

  const fivexx =
    count5xx([peakReads, peakWrites, ...readRuns, ...writeRuns]) +
    Object.entries(review.statuses).reduce((sum, [code, n]) => (code.startsWith('5') ? sum + n : sum), 0);
  const writeStatuses: Record<string, number> = {};
  for (const w of writeRuns)
    for (const [code, n] of Object.entries(w.statuses)) writeStatuses[code] = (writeStatuses[code] ?? 0) + n;
  const readP99 = median(readRuns.map((r) => r.p99));
  const writeP99 = median(writeRuns.map((r) => r.p99));
  const rssOf = (i: number) => median(rss[i] ?? []);
  const second = rssOf(Math.min(1, chunks - 1));
  const last = rssOf(chunks - 1);
  const unit = ctx.smoke ? 'second' : 'minute';
  const total = readRuns.reduce((s, r) => s + r.total, 0) + writeRuns.reduce((s, r) => s + r.total, 0);
  return [
    {
      name: `9 soak (PostgreSQL): 5xx answers in ${chunks} ${unit}s at ${rate} req/s`,
      figure: fivexx,
      unit: 'answers',
      target: '= 0',
      pass: fivexx === 0 && serverErrors === 0,
      note: `${total} requests + ${review.reviewed() + peakReview.reviewed()} reviews; writes answered ${Object.entries(
        writeStatuses,
      )
        .map(([c, n]) => `${n}×${c}`)
        .join(' ')}; ${serverErrors} error lines in the server log`,
    },
    {
      name: `9 soak (PostgreSQL): reads p99 (${readRate} req/s)`,
      figure: readP99,
      unit: 'ms',
      baseline: { label: 'p50', value: median(readRuns.map((r) => r.p50)), unit: 'ms' },
      target: `≤ ${READ_P99_MS} ms`,
      pass: readP99 <= READ_P99_MS,
      note: `median of ${chunks} ${unit}s, worst ${Math.max(...readRuns.map((r) => r.p99)).toFixed(0)} ms`,
    },
    {
      name: `9 soak (PostgreSQL): writes p99 (${writeRate} req/s withdraw/add + task/finish)`,
      figure: writeP99,
      unit: 'ms',
      baseline: { label: 'p50', value: median(writeRuns.map((r) => r.p50)), unit: 'ms' },
      target: `≤ ${WRITE_P99_MS} ms`,
      pass: writeP99 <= WRITE_P99_MS,
      note: `median of ${chunks} ${unit}s, worst ${Math.max(...writeRuns.map((r) => r.p99)).toFixed(0)} ms`,
    },
    {
      name: `9 soak (PostgreSQL): server RSS, last ${unit}`,
      figure: last / 2 ** 20,
      unit: 'MB',
      baseline: { label: `second ${unit}`, value: second / 2 ** 20, unit: 'MB' },
      ratio: last / second,
      target: `ratio ≤ ${RSS_MAX_GROWTH.toFixed(2)}`,
      pass: last / second <= RSS_MAX_GROWTH,
      note: `median of 1 s samples; first ${unit} ${(rssOf(0) / 2 ** 20).toFixed(0)} MB`,
    },
    {
      name: '9 soak (PostgreSQL): checkLedger() problems at the end (admin dashboard)',
      figure: dashboard.ledger.problemCount,
      unit: 'problems',
      target: '= 0 and no payout left open',
      pass: dashboard.ledger.ok && dashboard.ledger.problemCount === 0 && open === 0,
      note: `${openAtEnd} payouts open when the load stopped, ${open} after ${drainSec.toFixed(0)} s more; ${paid.items.length ? 'payouts paid by the sandbox callback' : 'no payout paid'}; ${jobFailures} "job failed" warnings in the server log`,
    },
  ];
}

/**
 * 9. Soak: mixed traffic at half of its own peak for `--soak-minutes` (10) minutes on PostgreSQL:
 * reads, withdrawals and task finishes from many users (paced, in their own generator processes),
 * an admin approving (and every tenth rejecting) the pending withdrawals, the sandbox gateway paying
 * the approved ones and calling back over HTTP. Zero 5xx, p99s, flat RSS, ledger check at the end.
 */
export const soak: Benchmark = {
  id: 9,
  title: 'soak',
  async run(ctx) {
    const database = await freshDatabase('soak');
    if (!database) {
      progress('PostgreSQL: no server at BENCH_POSTGRES_URL or 127.0.0.1:5432, skipped');
      return [];
    }
    try {
      const server = await startServer({
        DATABASE_URL: database.url,
        ...MANY_USERS_ENV,
        SANDBOX_PAYOUT_DELAY_MS: String(PAYOUT_DELAY_MS),
      });
      try {
        return await soakOn(ctx, server);
      } finally {
        await server.stop();
      }
    } finally {
      await database.drop();
    }
  },
};

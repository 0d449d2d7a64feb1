import { describe, expect, it } from 'vitest';
import { type Answer, api, freshDatabase, requiredServices, startInstance } from './cluster';

/**
 * Graceful shutdown of the real process (`src/main.ts`): SIGTERM in the middle of withdrawals and
 * approvals, with payout jobs running and the sandbox gateway's reports waiting in the job queue, ends
 * the process with exit code 0 (1 would mean the 15 s shutdown deadline fired). On PGlite always, on
 * the PostgreSQL server when the suite has it.
 */
const services = await requiredServices();
const USER = '/go_user/api/v1/user';
const COMMON = '/go_user/api/v1/common';
const ADMIN = '/go_user/api/v1/admin';
const OPERATOR = { username: 'ops@kamai.test', password: 'operator-1' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const databases = [{ name: 'PGlite', postgres: false }, ...(services ? [{ name: 'PostgreSQL', postgres: true }] : [])];

describe.each(databases)('SIGTERM under money traffic on $name', ({ postgres }) => {
  it('finishes in-flight work and exits with code 0', { timeout: 120_000 }, async () => {
    const fresh = postgres && services ? await freshDatabase(services.databaseUrl) : undefined;
    const instance = await startInstance({
      // Empty is unset: the suite's own DATABASE_URL and REDIS_URL must not reach the PGlite instance.
      DATABASE_URL: fresh?.url ?? '',
      REDIS_URL: '',
      ADMIN_USERNAME: OPERATOR.username,
      ADMIN_PASSWORD: OPERATOR.password,
      INVITE_CODE_REQUIRED: 'false',
      SANDBOX_PAYOUT_DELAY_MS: '300',
      JOB_LEASE_SECONDS: '2',
      PAYOUT_RECONCILE_AFTER_SECONDS: '2',
    });
    try {
      const base = instance.url;
      const admin = (await api(base, 'POST', `${COMMON}/user/login`, { body: OPERATOR })).body.data.token as string;
      expect(
        (await api(base, 'POST', `${ADMIN}/settings/set`, { body: { withdrawal: { dailyCount: 100 } }, token: admin }))
          .status,
      ).toBe(200);
      expect((await api(base, 'POST', `${COMMON}/otp/send`, { body: { target: '9876543210' } })).status).toBe(200);
      const outbox = await api(base, 'GET', `${ADMIN}/otp/outbox?limit=10`, { token: admin });
      const code = outbox.body.data.items.find((item: { target: string }) => item.target === '919876543210')?.code;
      const registered = await api(base, 'POST', `${COMMON}/user/register`, {
        body: { username: '9876543210', password: 'secret123', password2: 'secret123', verifyCode: code },
      });
      const token = registered.body.data.token as string;
      const userId = (await api(base, 'GET', `${USER}/user/detail`, { token })).body.data.id as number;
      await api(base, 'POST', `${USER}/wdaccount/bind`, {
        body: { accountNo: 'stop@okaxis', accountName: 'Stop Test' },
        token,
      });
      await api(base, 'POST', `${ADMIN}/revenue/add`, {
        body: { userId, amount: 20_000, remark: 'shutdown test' },
        token: admin,
      });

      // Withdrawals, each approved at once: payout dispatches and the sandbox's reports keep the job runner busy.
      let running = true;
      let approved = 0;
      const answers: (Answer | undefined)[] = [];
      const loop = async () => {
        while (running) {
          const created = await api(base, 'POST', `${USER}/withdraw/add`, { body: { amount: 100 }, token }).catch(
            () => undefined,
          );
          answers.push(created);
          if (created?.status !== 200) continue;
          const review = await api(base, 'POST', `${ADMIN}/withdraw/review`, {
            body: { id: created.body.data.id, action: 'approve', reason: '' },
            token: admin,
          }).catch(() => undefined);
          if (review?.status === 200) approved += 1;
        }
      };
      const clients = Promise.all([loop(), loop()]);
      while (approved < 6) await sleep(50);
      const exit = await instance.stop();
      running = false;
      await clients;

      expect(exit).toEqual({ code: 0, signal: null });
      // What the clients were answered while it stopped: accepted, or refused as unavailable in the envelope.
      const refused = answers.filter((a) => a && a.status !== 200);
      expect(refused.map((a) => [a?.status, a?.body.key])).toEqual(refused.map(() => [503, 'service_unavailable']));
    } finally {
      await instance.kill();
      await fresh?.drop();
    }
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { settings, withdrawals } from '../src/db/schema';
import { loadConfig } from '../src/platform/config';
import { createTestContext, type TestContext } from './helpers';
import { API, payee, review, withdraw } from './payout-helpers';
import { type LoggedRequest, type RazorpayxFake, type Sender, startRazorpayxFake } from './razorpayx-fake';
import { addAccountValidation } from './razorpayx-validation-fake';

/**
 * Installation-unique payout references: staging and production (or an installation and its restore
 * from an older backup) pay through one RazorpayX account, so withdrawal 1 of each must reach RazorpayX
 * under its own `reference_id` and `X-Payout-Idempotency`.
 */
const KEYS = {
  keyId: 'rzp_test_KamaiShared01',
  keySecret: 'fake-key-secret-shared',
  accountNumber: '7878780080316316',
  webhookSecret: 'whsec-shared-0123456',
};
const WEBHOOK = `${API}/common/pay/notify/razorpayx`;

const env = (fake: RazorpayxFake, extra: Record<string, string> = {}) => ({
  PAYOUT_GATEWAY: 'razorpayx',
  RAZORPAYX_KEY_ID: KEYS.keyId,
  RAZORPAYX_KEY_SECRET: KEYS.keySecret,
  RAZORPAYX_ACCOUNT_NUMBER: KEYS.accountNumber,
  RAZORPAYX_WEBHOOK_SECRET: KEYS.webhookSecret,
  RAZORPAYX_BASE_URL: fake.url,
  RAZORPAYX_TIMEOUT_MS: '2000',
  SANDBOX_PAYOUT_DELAY_MS: '3600000',
  PAYOUT_GATEWAY_SECRET: 'sandbox-secret-0123456789',
  ...extra,
});

async function row(ctx: TestContext, id: number) {
  const [found] = await ctx.db.select().from(withdrawals).where(eq(withdrawals.id, id));
  if (!found) throw new Error(`no withdrawal ${id}`);
  return found;
}

describe('payout references unique per installation', () => {
  let fake: RazorpayxFake;
  let production: TestContext;
  let staging: TestContext;

  beforeAll(async () => {
    fake = await startRazorpayxFake(KEYS);
    addAccountValidation(fake, {
      ...KEYS,
      instant: () => ({ accountStatus: 'active', registeredName: 'ASHA KUMARI' }),
    });
    production = await createTestContext(env(fake));
    staging = await createTestContext(env(fake));
  });
  afterAll(async () => {
    await production?.close();
    await staging?.close();
    await fake?.close();
  });

  /** Withdrawal `rupees` of a new payee, approved and handed to RazorpayX: its id and the create call. */
  async function sent(ctx: TestContext, rupees: number) {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: rupees })).body.data;
    const before = fake.requests.length;
    expect((await review(ctx, id, 'approve')).status).toBe(200);
    await ctx.worker.jobs.runDue();
    const create = fake.requests.slice(before).find((r) => r.method === 'POST' && r.path === '/v1/payouts');
    if (!create) throw new Error('no payout was created');
    return { id: id as number, user, create: create as LoggedRequest & { body: { reference_id: string } } };
  }

  const via =
    (ctx: TestContext): Sender =>
    async (delivery) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: WEBHOOK,
        payload: delivery.body,
        headers: delivery.headers,
      });
      return { status: res.statusCode, body: res.body };
    };

  it('withdrawal 1 of two installations on one RazorpayX account: two reference ids, two keys, two payouts; neither settles the other', async () => {
    const a = await sent(production, 150);
    const b = await sent(staging, 150);
    expect(a.id).toBe(b.id);
    expect(a.create.body.reference_id).not.toBe(b.create.body.reference_id);
    expect(a.create.idempotencyKey).not.toBe(b.create.idempotencyKey);
    // RazorpayX's limits: reference_id at most 40 characters (https://razorpay.com/docs/api/x/payouts/create/vpa),
    // the key 4-36 of letters, digits, -, _ and space (https://razorpay.com/docs/api/x/payout-idempotency/make-request).
    expect(a.create.body.reference_id.length).toBeLessThanOrEqual(40);
    expect(a.create.idempotencyKey).toMatch(/^[A-Za-z0-9_\- ]{4,36}$/);
    const [payoutA, payoutB] = [await row(production, a.id), await row(staging, b.id)];
    expect(payoutA.gatewayPayoutId).toMatch(/^pout_/);
    expect(payoutB.gatewayPayoutId).toMatch(/^pout_/);
    expect(payoutA.gatewayPayoutId).not.toBe(payoutB.gatewayPayoutId);

    // RazorpayX sends the account's webhooks to every URL configured: staging hears production's payout.
    const processed = fake.settle(payoutA.gatewayPayoutId as string, 'processed', { utr: '402900000001' });
    const heard = await fake.deliver('payout.processed', processed, { via: via(staging) });
    expect(heard.status).toBe(200);
    expect(JSON.parse(heard.body).data).toEqual({ applied: false });
    expect((await row(staging, b.id)).state).toBe('processing');
    await fake.deliver('payout.processed', processed, { via: via(production) });
    expect(await row(production, a.id)).toMatchObject({ state: 'paid', reference: '402900000001' });
  });

  it('keeps its prefix across a restart (kept in settings) and shows it to operators', async () => {
    const shown = await production.get(`${API}/admin/payout/reconciliation`, { token: await production.adminToken() });
    expect(shown.status).toBe(200);
    const prefix = shown.body.data.referencePrefix as string;
    expect(prefix).toMatch(/^[a-z0-9]{2,10}$/);
    const [stored] = await production.db.select().from(settings).where(eq(settings.key, 'payout_reference_prefix'));
    expect(stored?.value).toBe(prefix);
    const other = await staging.get(`${API}/admin/payout/reconciliation`, { token: await staging.adminToken() });
    expect(other.body.data.referencePrefix).not.toBe(prefix);
    // A restart: a new process on the same database reads the same prefix.
    const config = loadConfig({ LOG_LEVEL: 'silent', ...env(fake) });
    const again = await buildApp({ config, database: production.database, logger: false, now: production.now });
    try {
      const res = await again.app.inject({
        method: 'GET',
        url: `${API}/admin/payout/reconciliation`,
        headers: { authorization: `Bearer ${await production.adminToken()}` },
      });
      expect(res.json().data.referencePrefix).toBe(prefix);
    } finally {
      await again.app.close();
    }
    // The payout already sent keeps the reference it was sent with.
    const [first] = await production.db.select().from(withdrawals).where(eq(withdrawals.id, 1));
    expect(first?.payoutReference?.startsWith(`${prefix}-1-`)).toBe(true);
  });

  it('restored from an older backup (same prefix, withdrawal ids used again): a new reference, a new payout, never the old one', async () => {
    const prefix = (
      await production.get(`${API}/admin/payout/reconciliation`, { token: await production.adminToken() })
    ).body.data.referencePrefix as string;
    // The backup predates withdrawal 1: a database without it, the same installation (its prefix).
    const restored = await createTestContext(env(fake, { PAYOUT_REFERENCE_PREFIX: prefix }));
    try {
      const created = fake.created;
      const again = await sent(restored, 150);
      expect(again.id).toBe(1);
      const original = await row(production, 1);
      expect(again.create.body.reference_id.startsWith(`${prefix}-1-`)).toBe(true);
      expect(again.create.body.reference_id).not.toBe(original.payoutReference);
      expect(again.create.idempotencyKey).not.toBe(original.payoutIdempotencyKey);
      expect(fake.created - created).toBe(1);
      const stored = await row(restored, 1);
      expect(stored.state).toBe('processing');
      expect(stored.gatewayPayoutId).not.toBe(original.gatewayPayoutId);
    } finally {
      await restored.close();
    }
  });
});

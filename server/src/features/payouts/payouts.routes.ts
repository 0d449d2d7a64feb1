import type { AddressInfo } from 'node:net';
import { type PayoutGatewayName, RAZORPAYX_SIGNATURE_HEADER, routes } from '@kamai/contract';
import type { FastifyInstance } from 'fastify';
import { type Config, razorpayxConfigured } from '../../platform/config';
import { keyedCalls } from '../../platform/idempotency';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { sharedSecret } from '../../platform/secrets';
import { type AccountValidator, createAccountValidations, createSandboxValidator } from '../payout-accounts';
import { createIdentityLedger } from '../users';
import { withdrawalRisk } from '../withdrawals';
import { createPayoutsAdmin, type PayoutsAdmin } from './payouts.admin';
import type { PayoutGateway } from './payouts.gateway';
import { createRazorpayxGateway } from './payouts.razorpayx';
import { referencePrefix } from './payouts.references';
import { createSandboxGateway } from './payouts.sandbox';
import { createPayoutsService, type PayoutsService } from './payouts.service';
import { createRazorpayxValidator } from './payouts.validation';

function payoutsHandlers(
  payouts: PayoutsService,
  admin: PayoutsAdmin,
  { db, replica, now }: Pick<FeatureDeps, 'db' | 'replica' | 'now'>,
): Handlers {
  // With an Idempotency-Key a retried resolution answers as the first did (platform/idempotency.ts).
  const once = keyedCalls(db, (tx) => createPayoutsAdmin({ db: tx, now }));
  return {
    payNotifyMasterpay: (ctx) => payouts.callback(ctx.query, ctx.log),
    payNotifyRazorpayx: (ctx) => {
      const signature = ctx.rawHeaders[RAZORPAYX_SIGNATURE_HEADER];
      return payouts.razorpayxWebhook(ctx.rawBody, typeof signature === 'string' ? signature : undefined, ctx.log);
    },
    // A console list: on a replica when one is caught up, unless the operator changed something just now.
    adminPayoutMismatches: (ctx) => replica.read(ctx.actor.id, (from) => admin.list(ctx.query, from)),
    adminPayoutMismatchResolve: (ctx) =>
      once(ctx, 'admin.payout.mismatch.resolve', (a) => a.resolve(ctx.actor, ctx.body)),
    adminPayoutReconciliation: () => payouts.reconciliation.status(),
    adminPayoutReconciliationRun: (ctx) => payouts.reconciliation.queue(ctx.actor, ctx.body.day),
  };
}

/**
 * Our callback's URL for the gateway: under PUBLIC_URL, else at the address this process listens on;
 * null when it listens on none (an app driven by `inject`). Never PORT unbound: whatever else holds
 * that port would receive our signed callbacks.
 */
export function callbackUrl(config: Config, address: () => AddressInfo | string | null): string | null {
  const path = routes.payNotifyMasterpay.path;
  if (config.PUBLIC_URL) return new URL(path, config.PUBLIC_URL).toString();
  const bound = address();
  if (!bound || typeof bound === 'string') return null;
  const host = ['0.0.0.0', '::'].includes(bound.address)
    ? '127.0.0.1'
    : bound.family === 'IPv6'
      ? `[${bound.address}]`
      : bound.address;
  return `http://${host}:${bound.port}${path}`;
}

/** Built by the worker: payouts read and write the primary only. */
export interface PayoutsDeps extends Omit<FeatureDeps, 'replica'> {
  /** A real payout gateway; without it the "masterpay" sandbox pays (after SANDBOX_PAYOUT_DELAY_MS). */
  gateway?: PayoutGateway;
  /** Our callback's absolute URL, given to the gateway with each payout; null while nothing listens. */
  notifyUrl: () => string | null;
  /** Nudges this process's job runner after new work was committed. */
  wakeJobs: () => void;
  /** The job lease: a dispatch must give up well inside it. */
  leaseMs: number;
  /** Counts a payout mismatch this process opened (/metrics). */
  onMismatch?: (gateway: PayoutGatewayName) => void;
}

/**
 * The payouts service over the configured gateway (the sandbox unless one is given) and the jobs
 * both run. The gateway's secret is PAYOUT_GATEWAY_SECRET, else one generated on the first start and
 * kept in settings (shared by instances).
 */
export async function createPayouts(deps: PayoutsDeps) {
  const { db, now, log, config } = deps;
  const secret = await sharedSecret(db, 'payout_gateway_secret', config.PAYOUT_GATEWAY_SECRET);
  const prefix = await referencePrefix(db, config.PAYOUT_REFERENCE_PREFIX);
  const sandbox = createSandboxGateway({
    db,
    now,
    secret,
    delayMs: config.SANDBOX_PAYOUT_DELAY_MS,
    failureRate: config.SANDBOX_PAYOUT_FAILURE_RATE,
  });
  // RazorpayX runs whenever its settings are there, whatever PAYOUT_GATEWAY says: withdrawals approved
  // while it was chosen keep being paid, reconciled and settled through it after a switch back.
  const razorpayx = razorpayxConfigured(config)
    ? createRazorpayxGateway({
        baseUrl: config.RAZORPAYX_BASE_URL,
        keyId: config.RAZORPAYX_KEY_ID as string,
        keySecret: config.RAZORPAYX_KEY_SECRET as string,
        accountNumber: config.RAZORPAYX_ACCOUNT_NUMBER as string,
        timeoutMs: config.RAZORPAYX_TIMEOUT_MS,
      })
    : undefined;
  // Account checks go through RazorpayX when it pays new withdrawals, else through the sandbox; a
  // started check is fetched from the gateway that made it.
  const sandboxValidator = createSandboxValidator();
  const razorpayxValidator = razorpayx
    ? createRazorpayxValidator(razorpayx.call, config.RAZORPAYX_ACCOUNT_NUMBER as string)
    : undefined;
  const validators: Record<string, AccountValidator | undefined> = {
    sandbox: sandboxValidator,
    razorpayx: razorpayxValidator,
  };
  let afterValidation: PayoutsService['afterValidation'] | undefined;
  const validations = createAccountValidations({
    db,
    now,
    log,
    validator: config.PAYOUT_GATEWAY === 'razorpayx' && razorpayxValidator ? razorpayxValidator : sandboxValidator,
    operatorsOnly: config.PAYOUT_GATEWAY === 'razorpayx' && config.RAZORPAYX_ACCOUNT_VALIDATION === 'off',
    validators,
    checkAfterMs: config.PAYOUT_RECONCILE_AFTER_SECONDS * 1000,
    timeoutMs: config.RAZORPAYX_TIMEOUT_MS,
    wakeJobs: deps.wakeJobs,
    hashOf: createIdentityLedger(db, config.IDENTITY_HASH_SECRET).hashOf,
    onSettled: (tx, v) => afterValidation?.(tx, v) ?? Promise.resolve(),
    withdrawalRisk,
  });
  const payouts = createPayoutsService({
    validations,
    db,
    now,
    log,
    gateways: { sandbox: deps.gateway ?? sandbox.gateway, razorpayx: razorpayx?.gateway },
    defaultGateway: config.PAYOUT_GATEWAY,
    razorpayxWebhookSecrets: [config.RAZORPAYX_WEBHOOK_SECRET, config.RAZORPAYX_WEBHOOK_SECRET_PREVIOUS].filter(
      (value): value is string => Boolean(value),
    ),
    onMismatch: deps.onMismatch,
    referencePrefix: prefix,
    razorpayxList: razorpayx?.listPayouts,
    razorpayxRequestsPerSecond: config.RAZORPAYX_REQUESTS_PER_SECOND,
    razorpayxTimeoutMs: config.RAZORPAYX_TIMEOUT_MS,
    secret,
    notifyUrl: deps.notifyUrl,
    reconcileAfterMs: config.PAYOUT_RECONCILE_AFTER_SECONDS * 1000,
    // Well inside the job's lease, so a slow gateway cannot let a second instance claim the same job.
    dispatchTimeoutMs: Math.floor(deps.leaseMs / 2),
    wakeJobs: deps.wakeJobs,
  });
  afterValidation = payouts.afterValidation;
  return {
    payouts,
    validations,
    jobHandlers: { ...payouts.jobHandlers, ...sandbox.jobHandlers, ...validations.jobHandlers },
  };
}

/** The gateways' signed callbacks and the operators' payout mismatches. */
export function register(app: FastifyInstance, deps: FeatureDeps & { payouts: PayoutsService }) {
  registerRoutes(app, payoutsHandlers(deps.payouts, createPayoutsAdmin({ db: deps.db, now: deps.now }), deps));
}

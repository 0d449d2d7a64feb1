import type { AddressInfo } from 'node:net';
import { routes } from '@kamai/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../platform/config';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { sharedSecret } from '../../platform/secrets';
import type { PayoutGateway } from './payouts.gateway';
import { createSandboxGateway } from './payouts.sandbox';
import { createPayoutsService, type PayoutsService } from './payouts.service';

function payoutsHandlers(payouts: PayoutsService): Handlers {
  return {
    payNotifyMasterpay: (ctx) => payouts.callback(ctx.query, ctx.log),
  };
}

/** Our callback's URL for the gateway: under PUBLIC_URL, else at the address this process listens on. */
export function callbackUrl(config: Config, address: () => AddressInfo | string | null) {
  const path = routes.payNotifyMasterpay.path;
  if (config.PUBLIC_URL) return new URL(path, config.PUBLIC_URL).toString();
  const bound = address();
  if (!bound || typeof bound === 'string') return `http://127.0.0.1:${config.PORT}${path}`;
  const host = ['0.0.0.0', '::'].includes(bound.address)
    ? '127.0.0.1'
    : bound.family === 'IPv6'
      ? `[${bound.address}]`
      : bound.address;
  return `http://${host}:${bound.port}${path}`;
}

export interface PayoutsDeps extends FeatureDeps {
  /** A real payout gateway; without it the "masterpay" sandbox pays (after SANDBOX_PAYOUT_DELAY_MS). */
  gateway?: PayoutGateway;
  /** Our callback's absolute URL, given to the gateway with each payout. */
  notifyUrl: () => string;
  /** Nudges this process's job runner after new work was committed. */
  wakeJobs: () => void;
  /** The job lease: a dispatch must give up well inside it. */
  leaseMs: number;
}

/**
 * The payouts service over the configured gateway (the sandbox unless one is given) and the jobs
 * both run. The gateway's secret is PAYOUT_GATEWAY_SECRET, else one generated on the first start and
 * kept in settings (shared by instances).
 */
export async function createPayouts(deps: PayoutsDeps) {
  const { db, now, log, config } = deps;
  const secret = await sharedSecret(db, 'payout_gateway_secret', config.PAYOUT_GATEWAY_SECRET);
  const sandbox = createSandboxGateway({
    db,
    now,
    secret,
    delayMs: config.SANDBOX_PAYOUT_DELAY_MS,
    failureRate: config.SANDBOX_PAYOUT_FAILURE_RATE,
  });
  const payouts = createPayoutsService({
    db,
    now,
    log,
    gateway: deps.gateway ?? sandbox.gateway,
    secret,
    notifyUrl: deps.notifyUrl,
    reconcileAfterMs: config.PAYOUT_RECONCILE_AFTER_SECONDS * 1000,
    // Well inside the job's lease, so a slow gateway cannot let a second instance claim the same job.
    dispatchTimeoutMs: Math.floor(deps.leaseMs / 2),
    wakeJobs: deps.wakeJobs,
  });
  return { payouts, jobHandlers: { ...payouts.jobHandlers, ...sandbox.jobHandlers } };
}

/** The gateway's signed callback. */
export function register(app: FastifyInstance, { payouts }: { payouts: PayoutsService }) {
  registerRoutes(app, payoutsHandlers(payouts));
}

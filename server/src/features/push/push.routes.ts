import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { vapidKeys } from './push.keys';
import { type PushSender, webPushSender } from './push.sender';
import { createPushService, type PushService } from './push.service';

/** A push service that has not answered in this long is tried again later (the job retries). */
const PUSH_SEND_TIMEOUT_MS = 10_000;

function pushHandlers(push: PushService): Handlers {
  return {
    pushKey: async () => push.publicKey(),
    pushSubscribe: (ctx) => push.subscribe(ctx.user.id, ctx.body, ctx.locale),
    pushUnsubscribe: (ctx) => push.unsubscribe(ctx.user.id, ctx.body.endpoint),
  };
}

/** Built by the worker: pushes read and write the primary only. */
export interface PushDeps extends Omit<FeatureDeps, 'replica'> {
  /** Where pushes go; Web Push to each subscription's push service (VAPID) when absent. */
  sender?: PushSender;
}

/**
 * The push service and the jobs it runs, over the VAPID keys (VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY,
 * else a pair generated on the first start and kept in settings, shared by instances).
 */
export async function createPush(deps: PushDeps) {
  const vapid = await vapidKeys(deps.config, deps.db);
  const push = createPushService({
    db: deps.db,
    publicKey: vapid.publicKey,
    sender: deps.sender ?? webPushSender(vapid, PUSH_SEND_TIMEOUT_MS),
    allowedOrigins: deps.config.PUSH_ALLOWED_ORIGINS,
    now: deps.now,
    log: deps.log,
  });
  return { push, jobHandlers: push.jobHandlers };
}

/** The key, subscribe and unsubscribe routes. */
export function register(app: FastifyInstance, { push }: { push: PushService }) {
  registerRoutes(app, pushHandlers(push));
}

import {
  type Locale,
  NOTIFICATION_TEXT,
  noticeTextIn,
  notificationVars,
  PUSH_PATHS,
  PUSH_SUBSCRIPTIONS_PER_USER,
  PUSH_TTL_SECONDS,
  type PushMessage,
  type PushSubscribeBody,
  rejectReasonText,
  toLocale,
  translate,
} from '@kamai/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { JobHandler } from '../../platform/jobs';
import type { JobRow } from '../../platform/jobs.queries';
import { enqueueDeliveries, PUSH_DELIVER, PUSH_NOTICE, type PushContent } from '../../platform/push.queries';
import { isAllowedEndpoint, type OriginPattern } from '../../platform/push-origins';
import { noticeForPush } from '../notices';
import * as q from './push.queries';
import type { PushSender } from './push.sender';

/** A push the service cannot deliver after this many tries (about 25 minutes of backoff) is dropped. */
export const PUSH_MAX_ATTEMPTS = 12;

interface PushServiceOptions {
  db: Db;
  publicKey: string;
  sender: PushSender;
  allowedOrigins: readonly OriginPattern[];
  now: () => Date;
  log: FastifyBaseLogger;
}

/** The message a subscription gets, in its own language. */
export function pushMessageFor(content: PushContent, locale: Locale): PushMessage {
  if (content.source === 'notice') {
    return {
      title: translate(locale, 'push_new_notice'),
      body: noticeTextIn(content.title, content.titles, locale),
      url: content.url,
      tag: content.tag,
    };
  }
  const text = Object.hasOwn(NOTIFICATION_TEXT, content.kind)
    ? NOTIFICATION_TEXT[content.kind as keyof typeof NOTIFICATION_TEXT]
    : undefined;
  const reason = content.params.reason;
  const vars = {
    ...notificationVars(content.params),
    reason: rejectReasonText(reason === null || reason === undefined ? null : String(reason), locale) ?? '',
  };
  return {
    title: text ? translate(locale, text.title, vars) : content.kind,
    body: text ? translate(locale, text.body, vars) : '',
    url: content.url,
    tag: content.tag,
  };
}

/** Web Push: devices subscribe; jobs carry each push after its cause commits (docs/decisions/web-push.md). */
export function createPushService(options: PushServiceOptions) {
  const { db, sender, allowedOrigins, log } = options;

  async function subscribe(userId: number, body: PushSubscribeBody, locale: Locale) {
    // The endpoint is the caller's URL: only push services we know are ever sent to.
    if (!isAllowedEndpoint(body.endpoint, allowedOrigins)) throw new AppError('push_endpoint_not_allowed');
    await db.transaction(async (tx) => {
      await q.upsertSubscription(tx, { userId, ...body.keys, endpoint: body.endpoint, locale, at: options.now() });
      await q.trimSubscriptions(tx, userId, PUSH_SUBSCRIPTIONS_PER_USER);
    });
    return null;
  }

  async function unsubscribe(userId: number, endpoint: string) {
    await q.deleteUserSubscription(db, userId, endpoint);
    return null;
  }

  async function deliver(job: JobRow) {
    const payload = job.payload as PushContent & { subscriptionId: number };
    const subscription = await q.findSubscription(db, payload.subscriptionId);
    if (!subscription) return;
    // The list may have been narrowed since this endpoint was saved.
    if (!isAllowedEndpoint(subscription.endpoint, allowedOrigins)) {
      await q.deleteSubscription(db, subscription.id);
      log.warn({ subscriptionId: subscription.id }, 'push endpoint no longer allowed: subscription deleted');
      return;
    }
    if (payload.source === 'notice' && !(await noticeForPush(db, payload.noticeId))?.published) return;
    const locale = toLocale(subscription.locale) ?? 'en_US';
    const message = pushMessageFor(payload, locale);
    let outcome: Awaited<ReturnType<PushSender['send']>>;
    try {
      outcome = await sender.send(subscription, JSON.stringify(message), {
        ttlSeconds: PUSH_TTL_SECONDS,
        urgency: payload.source === 'notice' ? 'normal' : 'high',
      });
    } catch (error) {
      if (job.attempts < PUSH_MAX_ATTEMPTS) throw error;
      log.warn({ jobId: job.id, err: (error as Error).message }, 'push given up after retries');
      return;
    }
    if (outcome.result === 'gone') {
      await q.deleteSubscription(db, subscription.id);
      log.info({ subscriptionId: subscription.id, status: outcome.status }, 'push subscription gone: deleted');
    } else if (outcome.result === 'refused') {
      // 400 (bad request), 403 (VAPID key not the one it was made with), 413: trying again cannot help.
      log.warn({ subscriptionId: subscription.id, status: outcome.status }, 'push refused by the push service');
    }
  }

  /** At the notice's publish time: one delivery per subscription, unless it was unpublished or moved. */
  async function fanOutNotice(job: JobRow) {
    const { noticeId, publishedAt } = job.payload as { noticeId: number; publishedAt: string };
    const notice = await noticeForPush(db, noticeId);
    if (!notice?.published || notice.publishedAt?.toISOString() !== publishedAt) return;
    await enqueueDeliveries(db, {
      users: 'all',
      cause: `notice:${noticeId}`,
      content: {
        source: 'notice',
        noticeId,
        title: notice.title,
        titles: notice.titles,
        url: PUSH_PATHS.notices,
        tag: `notice:${noticeId}`,
      },
    });
  }

  const jobHandlers: Record<string, JobHandler> = { [PUSH_DELIVER]: deliver, [PUSH_NOTICE]: fanOutNotice };

  return { publicKey: () => ({ publicKey: options.publicKey }), subscribe, unsubscribe, jobHandlers };
}

export type PushService = ReturnType<typeof createPushService>;

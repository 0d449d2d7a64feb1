/** The push feature's public face (enqueueing a push is platform/push.queries.ts, below every feature). */

export { vapidKeys } from './push.keys';
export { pushHandlers } from './push.routes';
export { type PushSender, webPushSender } from './push.sender';
export { createPushService, type PushService } from './push.service';

// The public face of the push feature (enqueueing a push is platform/push.queries.ts, below every feature).

export { deleteUserSubscriptions } from './push.queries';
export { createPush, register } from './push.routes';
export type { PushSender } from './push.sender';
export type { PushService } from './push.service';

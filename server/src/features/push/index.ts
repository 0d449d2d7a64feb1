/** The push feature's public face: what other features call to send a push after their change commits. */

export { vapidKeys } from './push.keys';
export { enqueueDeliveries, enqueueNoticePush, type PushContent } from './push.queries';
export { pushHandlers } from './push.routes';
export { type PushSender, webPushSender } from './push.sender';
export { createPushService, type PushService } from './push.service';

import { caller, type Handlers } from '../../platform/routes';
import type { PushService } from './push.service';

export function pushHandlers(push: PushService): Handlers {
  return {
    pushKey: async () => push.publicKey(),
    pushSubscribe: (ctx) => push.subscribe(caller(ctx).id, ctx.body, ctx.locale),
    pushUnsubscribe: (ctx) => push.unsubscribe(caller(ctx).id, ctx.body.endpoint),
  };
}

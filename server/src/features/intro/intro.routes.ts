import { caller, type Handlers } from '../../platform/routes';
import type { IntroService } from './intro.service';

export function introHandlers(intro: IntroService): Handlers {
  return {
    introDetail: () => intro.detail(),
    introViewed: (ctx) => intro.viewed(caller(ctx).id),
    adminIntroGet: () => intro.detail(),
    adminIntroSet: (ctx) => intro.set({ id: caller(ctx).id, requestId: ctx.requestId }, ctx.body),
  };
}

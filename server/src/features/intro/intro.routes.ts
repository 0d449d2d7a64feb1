import { caller, type Handlers } from '../../platform/routes';
import type { IntroService } from './intro.service';

export function introHandlers(intro: IntroService): Handlers {
  return {
    introDetail: () => intro.detail(),
    introProgress: (ctx) => intro.progress(caller(ctx).id, ctx.body.watchedSeconds),
    adminIntroGet: () => intro.detail(),
    adminIntroSet: (ctx) => intro.set({ id: caller(ctx).id, requestId: ctx.requestId }, ctx.body),
  };
}

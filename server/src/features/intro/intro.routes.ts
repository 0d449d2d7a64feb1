import type { FastifyInstance } from 'fastify';
import { caller, type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createIntroService, type IntroService } from './intro.service';

function introHandlers(intro: IntroService): Handlers {
  return {
    introDetail: () => intro.detail(),
    introProgress: (ctx) => intro.progress(caller(ctx).id, ctx.body.watchedSeconds),
    adminIntroGet: () => intro.detail(),
    adminIntroSet: (ctx) => intro.set({ id: caller(ctx).id, requestId: ctx.requestId }, ctx.body),
  };
}

export function register(app: FastifyInstance, { db, now }: FeatureDeps) {
  registerRoutes(app, introHandlers(createIntroService({ db, now })));
}

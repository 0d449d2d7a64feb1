import type { FastifyInstance } from 'fastify';
import { caller, type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createIntroService, type IntroService } from './intro.service';

function introHandlers(intro: IntroService): Handlers {
  return {
    introDetail: () => intro.detail(),
    introViewed: (ctx) => intro.viewed(caller(ctx).id),
    adminIntroGet: () => intro.detail(),
    adminIntroSet: (ctx) => intro.set({ id: caller(ctx).id, requestId: ctx.requestId }, ctx.body),
  };
}

export function register(app: FastifyInstance, { db }: FeatureDeps) {
  registerRoutes(app, introHandlers(createIntroService({ db })));
}

import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createIntroAdmin, type IntroAdmin } from './intro.admin';
import { createIntroService, type IntroService } from './intro.service';

function introHandlers(intro: IntroService, admin: IntroAdmin): Handlers {
  return {
    introDetail: () => intro.detail(),
    introProgress: (ctx) => intro.progress(ctx.user.id, ctx.body.watchedSeconds),
    adminIntroGet: () => intro.detail(),
    adminIntroSet: (ctx) => admin.set(ctx.actor, ctx.body),
  };
}

export function register(app: FastifyInstance, { db, now }: FeatureDeps) {
  registerRoutes(app, introHandlers(createIntroService({ db, now }), createIntroAdmin({ db })));
}

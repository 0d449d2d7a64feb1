import type { FastifyInstance } from 'fastify';
import { type ControlKinds, type ControlService, createControlService } from './control-changes';
import { type FeatureDeps, type Handlers, registerRoutes } from './routes';

function controlHandlers(control: ControlService): Handlers {
  return {
    adminControlList: (ctx) => control.list(ctx.query),
    adminControlApply: (ctx) => control.apply(ctx.actor, ctx.body),
    adminControlCancel: (ctx) => control.cancel(ctx.actor, ctx.body),
  };
}

/** `kinds`: how each kind of change is read and applied, from the features that own them (app.ts). */
export function registerControl(app: FastifyInstance, { db, now, kinds }: FeatureDeps & { kinds: ControlKinds }) {
  const control = createControlService({ db, now, kinds });
  registerRoutes(app, controlHandlers(control));
  return control;
}

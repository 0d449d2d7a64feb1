import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, type Handlers, registerRoutes } from './routes';
import { createSettingsService, type SettingsSections, type SettingsService } from './settings.service';

function settingsHandlers(settings: SettingsService): Handlers {
  return {
    adminSettingsGet: () => settings.get(),
    adminSettingsSet: (ctx) => settings.set(ctx.actor, ctx.body),
  };
}

/** `sections`: the parts of the settings page, from the features that own them (app.ts). Answers its dual-control kind. */
export function registerSettings(
  app: FastifyInstance,
  { db, now, sections }: FeatureDeps & { sections: SettingsSections },
) {
  const settings = createSettingsService({ db, now, sections });
  registerRoutes(app, settingsHandlers(settings));
  return settings.control;
}

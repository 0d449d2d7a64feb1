import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createSurveyService, type SurveyService } from './survey.service';

function surveyHandlers(survey: SurveyService): Handlers {
  return {
    surveySubmit: (ctx) => survey.submit(ctx.user.id, ctx.body),
    surveyDetail: (ctx) => survey.detail(ctx.user.id),
  };
}

export function register(app: FastifyInstance, { db, now }: FeatureDeps) {
  registerRoutes(app, surveyHandlers(createSurveyService({ db, now })));
}

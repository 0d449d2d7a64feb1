import type { FastifyInstance } from 'fastify';
import { caller, type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createSurveyService, type SurveyService } from './survey.service';

function surveyHandlers(survey: SurveyService): Handlers {
  return {
    surveySubmit: (ctx) => survey.submit(caller(ctx).id, ctx.body),
    surveyDetail: (ctx) => survey.detail(caller(ctx).id),
  };
}

export function register(app: FastifyInstance, { db, now }: FeatureDeps) {
  registerRoutes(app, surveyHandlers(createSurveyService({ db, now })));
}

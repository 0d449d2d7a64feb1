import { caller, type Handlers } from '../../platform/routes';
import type { SurveyService } from './survey.service';

export function surveyHandlers(survey: SurveyService): Handlers {
  return {
    surveySubmit: (ctx) => survey.submit(caller(ctx).id, ctx.body),
    surveyDetail: (ctx) => survey.detail(caller(ctx).id),
  };
}

// The public face of the survey feature.
export { surveyHandlers } from './survey.routes';
export { createSurveyService } from './survey.service';

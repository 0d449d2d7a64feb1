// The public face of the survey feature.

export { deleteSurveyResponse } from './survey.queries';
export { register } from './survey.routes';

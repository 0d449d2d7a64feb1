// The public face of the survey feature.
export { register } from './survey.routes';

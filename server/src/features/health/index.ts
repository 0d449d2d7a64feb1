// The public face of the health feature.
export { register } from './health.routes';

// The public face of the health feature.
export { healthHandlers } from './health.routes';

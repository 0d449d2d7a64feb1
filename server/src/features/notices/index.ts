// The public face of the notices feature.
export { register } from './notices.routes';

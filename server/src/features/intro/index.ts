// The public face of the intro feature.
export { register } from './intro.routes';

// The public face of the revenue feature.
export { register } from './revenue.routes';

// The public face of the intro feature.

export { watchedIntroOf } from './intro.queries';
export { register } from './intro.routes';

// The public face of the intro feature.
export { introHandlers } from './intro.routes';
export { createIntroService } from './intro.service';

// The public face of the uploads feature.
export { register } from './uploads.routes';
export type { FileStore } from './uploads.store';

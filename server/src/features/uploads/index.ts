// The public face of the uploads feature.
export { register } from './uploads.routes';
export type { UploadFiles } from './uploads.service';
export type { FileStore } from './uploads.store';

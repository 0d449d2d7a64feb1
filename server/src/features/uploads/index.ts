// The public face of the uploads feature.
export { serveUploads, uploadsHandlers } from './uploads.routes';
export { createUploadsService } from './uploads.service';
export { diskFileStore, type FileStore } from './uploads.store';

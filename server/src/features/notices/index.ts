// The public face of the notices feature.
export { createNoticesAdminService } from './notices.admin';
export { noticesHandlers } from './notices.routes';
export { createNoticesService } from './notices.service';

// The public face of the auth feature (register, log in, log out, reset password).
export { authHandlers } from './auth.routes';
export { createAuthService } from './auth.service';

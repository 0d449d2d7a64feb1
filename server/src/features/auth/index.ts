// The public face of the auth feature (register, log in, log out, passwords, the session lookup).
export { register } from './auth.routes';
export type { AuthService } from './auth.service';
export { clearAttempts as clearLoginAttempts } from './login-attempts.queries';

import type { FastifyInstance } from 'fastify';
import type { RateCounters } from '../../platform/rate-limit';
import { caller, type FeatureDeps, type Handlers, registerRoutes, setSessionResolver } from '../../platform/routes';
import type { OtpService } from '../otp';
import { type AuthService, createAuthService } from './auth.service';

function authHandlers(auth: AuthService): Handlers {
  return {
    register: ({ body }) => auth.register(body),
    login: ({ body, ip }) => auth.login({ ...body, ip }),
    resetPassword: ({ body }) => auth.resetPassword(body),
    editPassword: (ctx) => auth.changePassword(caller(ctx), ctx.body),
    logout: (ctx) => auth.logout(caller(ctx)),
  };
}

/** Register, log in and out, passwords; and the session lookup every user and admin route uses. */
export function register(app: FastifyInstance, deps: FeatureDeps & { otp: OtpService; counters: RateCounters }) {
  const auth = createAuthService(deps);
  setSessionResolver(app, auth.resolveSession);
  registerRoutes(app, authHandlers(auth));
}

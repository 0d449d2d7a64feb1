import { LOGIN_ADDRESS_LOCK_MINUTES } from '@kamai/contract';
import type { FastifyInstance } from 'fastify';
import { HOUR_S, type RateLimits } from '../../platform/rate-limit';
import { type FeatureDeps, type Handlers, registerRoutes, setSessionResolver } from '../../platform/routes';
import type { OtpService } from '../otp';
import { type AuthService, createAuthService } from './auth.service';

function authHandlers(auth: AuthService): Handlers {
  return {
    register: ({ body, ip, client }) => auth.register({ ...body, ip }, client),
    login: ({ body, ip, client }) => auth.login({ ...body, ip }, client),
    resetPassword: ({ body, ip, requestId }) => auth.resetPassword({ ...body, ip, requestId }),
    editPassword: (ctx) => auth.changePassword({ ...ctx.user, requestId: ctx.requestId }, ctx.body),
    logout: (ctx) => auth.logout(ctx.user),
  };
}

/** Register, log in and out, passwords; and the session lookup every user and admin route uses. */
export function register(app: FastifyInstance, deps: FeatureDeps & { otp: OtpService; rates: RateLimits }) {
  const { config, rates } = deps;
  const auth = createAuthService({
    ...deps,
    limits: {
      loginsPerIp: rates.limit('login:ip', config.LOGIN_FAILURES_PER_IP, LOGIN_ADDRESS_LOCK_MINUTES * 60),
      registrationsPerIp: rates.limit('register:ip', config.REGISTRATIONS_PER_IP_PER_HOUR, HOUR_S),
      resetsPerIp: rates.limit('resetpass:ip', config.RESETS_PER_IP_PER_HOUR, HOUR_S),
    },
  });
  setSessionResolver(app, auth.resolveSession);
  registerRoutes(app, authHandlers(auth));
  return auth;
}

import { caller, type Handlers } from '../../platform/routes';
import type { AuthService } from './auth.service';

export function authHandlers(auth: AuthService): Handlers {
  return {
    register: ({ body, client }) => auth.register(body, client),
    login: ({ body, ip, client }) => auth.login({ ...body, ip }, client),
    resetPassword: ({ body }) => auth.resetPassword(body),
    editPassword: (ctx) => auth.changePassword(caller(ctx), ctx.body),
    logout: (ctx) => auth.logout(caller(ctx)),
  };
}

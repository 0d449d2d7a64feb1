import { caller, type Handlers } from '../../platform/routes';
import type { AuthService } from './auth.service';

export function authHandlers(auth: AuthService): Handlers {
  return {
    register: ({ body, ip }) => auth.register({ ...body, ip }),
    login: ({ body, ip }) => auth.login({ ...body, ip }),
    resetPassword: ({ body, ip, requestId }) => auth.resetPassword({ ...body, ip, requestId }),
    editPassword: (ctx) => auth.changePassword({ ...caller(ctx), requestId: ctx.requestId }, ctx.body),
    logout: (ctx) => auth.logout(caller(ctx)),
  };
}

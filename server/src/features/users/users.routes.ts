import { type Handlers, sessionRead } from '../../platform/routes';
import type { UsersService } from './users.service';

export function usersHandlers(users: UsersService): Handlers {
  return {
    userDetail: sessionRead((ctx) => users.detail(ctx.sessionHash)),
  };
}

import { caller, type Handlers } from '../../platform/routes';
import type { UsersService } from './users.service';

export function usersHandlers(users: UsersService): Handlers {
  return {
    userDetail: (ctx) => users.detail(caller(ctx).id),
  };
}

import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, type Handlers, registerRoutes, sessionRead } from '../../platform/routes';
import { createUsersService, type UsersService } from './users.service';

function usersHandlers(users: UsersService): Handlers {
  return {
    userDetail: sessionRead((ctx) => users.detail(ctx.sessionHash)),
  };
}

export function register(app: FastifyInstance, { db, now }: FeatureDeps) {
  registerRoutes(app, usersHandlers(createUsersService({ db, now })));
}

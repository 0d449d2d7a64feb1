import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { sessionRead } from '../../platform/session-read';
import { createUsersService, type UsersService } from './users.service';

function usersHandlers(users: UsersService): Handlers {
  return {
    userDetail: sessionRead((ctx) => users.detail(ctx.sessionHash)),
  };
}

export function register(app: FastifyInstance, { db, now }: FeatureDeps) {
  registerRoutes(app, usersHandlers(createUsersService({ db, now })));
}

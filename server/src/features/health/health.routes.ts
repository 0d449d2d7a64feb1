import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';

function healthHandlers(db: Db): Handlers {
  return {
    liveness: async () => ({ status: 'ok' }),
    readiness: async () => {
      try {
        await db.execute(sql`select 1`);
      } catch {
        throw new AppError('service_unavailable');
      }
      return { status: 'ok', database: 'up' };
    },
  };
}

export function register(app: FastifyInstance, { db }: FeatureDeps) {
  registerRoutes(app, healthHandlers(db));
}

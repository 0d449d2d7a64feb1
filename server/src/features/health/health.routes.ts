import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { transactionReadOnly } from './health.queries';

function healthHandlers(db: Db): Handlers {
  return {
    liveness: async () => ({ status: 'ok' }),
    readiness: async () => {
      // A standby (or a primary being demoted) answers reads: ready means the database takes writes,
      // as libpq's target_session_attrs=read-write checks. Both failures answer 503 with Retry-After.
      let readOnly: unknown;
      try {
        readOnly = await transactionReadOnly(db);
      } catch {
        throw new AppError('service_unavailable');
      }
      if (readOnly !== 'off') throw new AppError('service_unavailable', { database: 'read-only' });
      return { status: 'ok', database: 'up' };
    },
  };
}

export function register(app: FastifyInstance, { db }: FeatureDeps) {
  registerRoutes(app, healthHandlers(db));
}

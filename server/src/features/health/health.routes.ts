import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';

function healthHandlers(db: Db): Handlers {
  return {
    liveness: async () => ({ status: 'ok' }),
    readiness: async () => {
      // A standby (or a primary being demoted) answers reads: ready means the database takes writes,
      // as libpq's target_session_attrs=read-write checks. Both failures answer 503 with Retry-After.
      let readOnly: unknown;
      try {
        const result = await db.execute<{ read_only: string }>(
          sql`select current_setting('transaction_read_only') as read_only`,
        );
        readOnly = (result as unknown as { rows: { read_only: string }[] }).rows[0]?.read_only;
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

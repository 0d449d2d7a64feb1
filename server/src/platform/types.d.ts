import type { Policy, RouteName } from '@kamai/contract';
import type { AuthUser } from './auth';

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: Policy;
    /** The contract's name of the route (its error answers are checked against the documented ones in tests). */
    routeName?: RouteName;
  }
  interface FastifyRequest {
    authUser: AuthUser | undefined;
    /** Time the answer was held back on purpose (a refused one-time code): not counted as slow. */
    deliberateDelayMs: number;
  }
}

import type { Policy } from '@kamai/contract';
import type { AuthUser } from './auth';

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: Policy;
  }
  interface FastifyRequest {
    authUser: AuthUser | undefined;
    /** The bearer token's hash on a session-read route (routes.ts). */
    sessionHash: string | undefined;
  }
}

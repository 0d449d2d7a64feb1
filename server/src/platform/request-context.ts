import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyRequest } from 'fastify';

/** What a route's handler may need of its request without every service passing it along. */
interface RequestContext {
  /** The `x-request-id` the client sent (letters, digits, `_` and `-`, 8 to 64), if any. */
  clientRequestId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * The request id is always the server's own (a UUID, answered as `x-request-id`): a client could
 * send the same id twice, or another client's, and the audit log must name one request (issue 12).
 * The client's id is kept beside it.
 */
export function clientRequestIdOf(request: FastifyRequest): string | undefined {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : undefined;
}

/** Runs a route's handler with its request's context (registerRoutes). */
export function withRequestContext<T>(request: FastifyRequest, run: () => Promise<T>): Promise<T> {
  return storage.run({ clientRequestId: clientRequestIdOf(request) }, run);
}

/** The client's `x-request-id` of the request being handled; undefined outside one (jobs). */
export function currentClientRequestId(): string | undefined {
  return storage.getStore()?.clientRequestId;
}

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
 * send the same id twice, or another client's, and the audit log must name one request
 * (docs/decisions/request-pipeline.md).
 * The client's id is kept beside it.
 */
export function clientRequestIdOf(request: FastifyRequest): string | undefined {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : undefined;
}

/**
 * Runs a route's handler with its request's context (registerRoutes). Without a client id there is
 * nothing to keep, and the store is not entered: on Node 20 an AsyncLocalStorage in use installs
 * promise hooks that cost every promise of every request (~3% of a hello route's CPU). `run` is the
 * route's own function, made once, and is given the request and reply: no closure per request.
 */
export function withRequestContext<R, T>(
  request: FastifyRequest,
  reply: R,
  run: (request: FastifyRequest, reply: R) => Promise<T>,
): Promise<T> {
  const clientRequestId = clientRequestIdOf(request);
  return clientRequestId === undefined ? run(request, reply) : storage.run({ clientRequestId }, run, request, reply);
}

/** The client's `x-request-id` of the request being handled; undefined outside one (jobs). */
export function currentClientRequestId(): string | undefined {
  return storage.getStore()?.clientRequestId;
}

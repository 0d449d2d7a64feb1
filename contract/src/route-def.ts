import type { z } from 'zod';
import type { Role } from './auth';
import type { MessageKey } from './catalogue';

/** Who may call a route (docs/design.md "API contract"): anyone, any logged-in user, or staff (see `roles`). */
export type Policy = 'public' | 'user' | 'admin';
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** The roles that can be let in on an `admin` route. */
export type StaffRole = Exclude<Role, 'user'>;
/** A body other than the JSON envelope; the server streams it. */
export type Produces = 'text/csv';

export interface RouteDef {
  method: Method;
  path: string;
  policy: Policy;
  summary: string;
  tag: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** The body is multipart/form-data with one file in this field (instead of a JSON `body`). */
  multipart?: { field: string };
  /** Request headers the route reads; a loose object, so other headers pass through untouched. */
  headers?: z.ZodType;
  /** Schema of the envelope's `data` on success. */
  data: z.ZodType;
  /** Catalogue key of the success message (default `ok`). */
  ok?: MessageKey;
  /**
   * Who may call an `admin` route: admins only when left out. Reviewers are let in on read-only views
   * and withdrawal review by listing them here; `admin` is always listed too.
   */
  roles?: readonly StaffRole[];
  /** A success answer that is not the envelope (e.g. a CSV download); `data` then documents its text. */
  produces?: Produces;
  /**
   * The success answer is `data` itself as plain text, not the envelope (a payment gateway's callback
   * expects the bare word `success`). Failures still answer the envelope.
   */
  raw?: true;
  /**
   * The handler receives the request body's bytes unparsed (any content type, no `body` schema): a
   * webhook whose signature covers the exact bytes must be checked before anything reads them.
   */
  rawBody?: true;
}

/** A route's address without schemas or access rules: what an API client needs (see endpoints.ts). */
export type EndpointDef = Pick<RouteDef, 'method' | 'path' | 'produces'>;

const ADMIN_ONLY: readonly StaffRole[] = ['admin'];
/** Reviewer-readable admin route. */
export const STAFF: readonly StaffRole[] = ['admin', 'reviewer'];

/** The roles allowed on a route: none for public and user routes (any logged-in user passes those). */
export function rolesOf(def: Pick<RouteDef, 'policy' | 'roles'>): readonly StaffRole[] {
  return def.policy === 'admin' ? (def.roles ?? ADMIN_ONLY) : [];
}

export const USER = '/go_user/api/v1/user';
export const COMMON = '/go_user/api/v1/common';
export const ADMIN = '/go_user/api/v1/admin';
/** The linked-account provider's paths (spec section 10). */
export const WS = '/obj/ws/account';

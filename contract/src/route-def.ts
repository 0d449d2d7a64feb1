import type { z } from 'zod';
import type { MessageKey } from './catalogue';

/** Who may call a route (DESIGN.md §4): anyone, any logged-in user, or an operator. */
export type Policy = 'public' | 'user' | 'admin';
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteDef {
  method: Method;
  path: string;
  policy: Policy;
  summary: string;
  tag: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** Request headers the route reads; a loose object, so other headers pass through untouched. */
  headers?: z.ZodType;
  /** Schema of the envelope's `data` on success. */
  data: z.ZodType;
  /** Catalogue key of the success message (default `ok`). */
  ok?: MessageKey;
  /**
   * The success answer is `data` itself as plain text, not the envelope (a payment gateway's callback
   * expects the bare word `success`). Failures still answer the envelope.
   */
  raw?: true;
}

export const USER = '/go_user/api/v1/user';
export const COMMON = '/go_user/api/v1/common';
export const ADMIN = '/go_user/api/v1/admin';

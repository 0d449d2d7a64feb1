import { z } from 'zod';
import { pageOf } from './pagination';

/** A code the sandbox sender "delivered", for operators (admin console, OTP outbox). */
export const outboxItem = z.object({
  id: z.number().int(),
  channel: z.enum(['sms', 'email']),
  target: z.string(),
  code: z.string(),
  createdAt: z.string(),
});
export const outboxPage = pageOf(outboxItem);
export type OutboxItem = z.infer<typeof outboxItem>;

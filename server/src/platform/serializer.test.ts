import { envelopeOf } from '@kamai/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializerCompiler } from './serializer';

const schema = envelopeOf(
  z.object({
    id: z.number().int(),
    username: z.string(),
    balance: z.string(),
    items: z.array(z.object({ title: z.string(), endsAt: z.string().nullable() })),
  }),
);
const route = { schema, method: 'GET', url: '/x', httpStatus: '200' };
const answer = {
  code: 200,
  message: 'OK',
  key: 'ok',
  data: {
    id: 7,
    username: 'a@b.in',
    balance: '1.50',
    passwordHash: '$argon2id$secret',
    items: [{ title: 'T "1"', endsAt: null, internal: true }],
  },
};

describe('responseSerializerCompiler', () => {
  it('writes only the fields the schema names, as zod would', () => {
    for (const check of [false, true]) {
      const out = responseSerializerCompiler({ check })(route as never)(answer);
      expect(JSON.parse(out)).toEqual({
        code: 200,
        message: 'OK',
        key: 'ok',
        data: { id: 7, username: 'a@b.in', balance: '1.50', items: [{ title: 'T "1"', endsAt: null }] },
      });
      expect(out).not.toContain('argon2');
    }
  });

  it('with the check, refuses an answer that breaks its schema', () => {
    const serialize = responseSerializerCompiler({ check: true })(route as never);
    expect(() => serialize({ ...answer, data: { ...answer.data, balance: 150 } })).toThrow();
  });
});

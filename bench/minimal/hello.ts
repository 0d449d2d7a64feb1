import { translate } from '@kamai/contract';
import { POLICY_PARTS, type PolicyPart, serve, yardstickApp } from './policy';

/**
 * Benchmark 1's analysis line (not its yardstick): Fastify 5 with Kamai's per-request policy
 * (`yardstickApp(true)`) answering `GET /obj/test/t1` with the bytes Kamai's liveness route answers,
 * from a hand-written response schema. Between it and the bare Fastify hello is what the policy
 * costs; between it and Kamai's t1 is what the rest of Kamai's stack costs (the contract's route
 * table, the envelope, the handler's context).
 *
 * With HELLO_POLICY=none it answers the same bytes with no policy at all, and with HELLO_POLICY set to
 * one `PolicyPart` with that part alone (`bench/cpu-per-request.ts --entry=policy-none,policy-headers,…`).
 *
 *   PORT=3002 [HELLO_POLICY=none|options|headers|observer] node --import tsx bench/minimal/hello.ts
 */
const part = process.env.HELLO_POLICY;
if (part !== undefined && part !== 'none' && !POLICY_PARTS.includes(part as PolicyPart)) {
  throw new Error(`HELLO_POLICY=${part}: expected none or one of ${POLICY_PARTS.join(', ')}`);
}
const app = yardstickApp(part === undefined ? true : part === 'none' ? false : (part as PolicyPart));
const OK = translate('en_US', 'ok');

app.get(
  '/obj/test/t1',
  {
    schema: {
      response: {
        200: {
          type: 'object',
          properties: {
            code: { type: 'integer' },
            message: { type: 'string' },
            key: { type: 'string' },
            data: { type: 'object', properties: { status: { type: 'string' } } },
          },
        },
      },
    },
  },
  async () => ({ code: 200, message: OK, key: 'ok', data: { status: 'ok' } }),
);

serve(app);

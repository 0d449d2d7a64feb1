import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/platform/config';
import { testDatabase } from './helpers';

/**
 * Closing (what SIGTERM does in main.ts): a request that reaches the server while it shuts down, as one
 * on a kept-alive connection does, is refused with 503 in the envelope, never Fastify's own body.
 */
describe('a request that arrives while the server closes', () => {
  it('answers 503 service_unavailable in the envelope with Connection: close', async () => {
    const database = await testDatabase();
    const { app } = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), database, logger: false });
    const answers: { status: number; connection: string | null; retryAfter: string | null; body: unknown }[] = [];
    // Runs after the app's own preClose hooks (the job runner has stopped), while the server still listens.
    app.addHook('preClose', async () => {
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      for (const path of ['/obj/test/t2', '/go_user/api/v1/user/user/detail']) {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'accept-language': 'en-US' } });
        answers.push({
          status: res.status,
          connection: res.headers.get('connection'),
          retryAfter: res.headers.get('retry-after'),
          body: await res.json(),
        });
      }
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    expect(
      (await fetch(`http://127.0.0.1:${(app.server.address() as { port: number }).port}/obj/test/t2`)).status,
    ).toBe(200);
    await app.close();
    await database.close();

    expect(answers).toHaveLength(2);
    for (const answer of answers) {
      expect(answer).toMatchObject({
        status: 503,
        connection: 'close',
        retryAfter: '2',
        body: { code: 503, key: 'service_unavailable', data: { requestId: expect.any(String) } },
      });
    }
  });
});

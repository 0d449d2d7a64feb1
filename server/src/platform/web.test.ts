import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveApps } from './web';

const SCRIPT = `export const text = '${'kamai '.repeat(200)}';\n`;
const HTML = `<!doctype html><html><body>${'<p>app</p>'.repeat(100)}</body></html>`;

/** A build like web/dist (with .br/.gz copies) and one like admin/dist (without). */
function writeBuilds(root: string) {
  const web = join(root, 'web');
  const admin = join(root, 'admin');
  mkdirSync(join(web, 'assets'), { recursive: true });
  mkdirSync(join(admin, 'assets'), { recursive: true });
  const files = { 'index.html': HTML, 'assets/index-AbCd1234.js': SCRIPT };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(web, name), text);
    writeFileSync(join(web, `${name}.br`), brotliCompressSync(text));
    writeFileSync(join(web, `${name}.gz`), gzipSync(text));
    writeFileSync(join(admin, name), text);
  }
  return { web, admin };
}

describe('serveApps', () => {
  let root: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'kamai-web-'));
    app = Fastify();
    const spaFallback = await serveApps(app, writeBuilds(root));
    app.setNotFoundHandler((request, reply) => {
      if (spaFallback(request.url, request.method, reply)) return reply;
      return reply.code(404).send({ code: 404 });
    });
  });

  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it('sends the brotli copy of a hashed asset to a browser that accepts it, cached for a year', async () => {
    const response = await get('/assets/index-AbCd1234.js', 'gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the gzip copy when brotli is not accepted', async () => {
    const response = await get('/assets/index-AbCd1234.js', 'gzip');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the plain file, still marked as varying, when no encoding is accepted', async () => {
    const response = await get('/assets/index-AbCd1234.js');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.body).toBe(SCRIPT);
  });

  it('revalidates index.html, compressed too, also as the fallback of a client-side route', async () => {
    for (const url of ['/', '/index.html', '/index/home']) {
      const response = await get(url, 'br');
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(response.headers['content-type'], url).toMatch(/text\/html/);
      expect(brotliDecompressSync(response.rawPayload).toString(), url).toBe(HTML);
    }
  });

  it('sends a build without copies (the console) plain', async () => {
    const response = await get('/admin/assets/index-AbCd1234.js', 'gzip, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body).toBe(SCRIPT);
  });

  it('does not answer a missing asset with the app', async () => {
    const response = await get('/assets/missing-AbCd1234.js', 'br');
    expect(response.statusCode).toBe(404);
  });
});

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

const API_PREFIXES = ['/go_user/', '/obj/', '/docs'];

/** A build's content-hashed file, e.g. `assets/index-DRf104iV.js` (or its `.br`/`.gz` copy). */
const HASHED = /[/\\]assets[/\\][^/\\]+-[A-Za-z0-9_-]{8,}\.\w+(?:\.(?:br|gz))?$/;

/** Hashed assets never change: cache them for a year; everything else (index.html) is revalidated. */
function cacheHeaders(reply: FastifyReply, path: string) {
  reply.header('Cache-Control', HASHED.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
}

/**
 * The app's and the console's builds write a `.br` and a `.gz` copy next to each text file
 * (tools/vite-precompress.ts); `preCompressed` sends the best one the browser accepts with its
 * Content-Encoding and `Vary: accept-encoding`, and the plain file when there is no copy or the
 * browser accepts neither. Nothing is compressed per request.
 */
const STATIC_OPTIONS = { setHeaders: cacheHeaders, index: 'index.html', preCompressed: true } as const;

export interface WebRoots {
  web: string;
  admin: string;
}

/**
 * Serves the built user app at `/` and the console at `/admin/`. A GET for an unknown path that is
 * not an API path answers with the app's index.html so client-side routes (/List1, /index/home) load.
 * Returns whether a request was such an app path (the caller sends 404 envelopes otherwise).
 */
export async function serveApps(app: FastifyInstance, roots: WebRoots) {
  const hasWeb = existsSync(join(roots.web, 'index.html'));
  const hasAdmin = existsSync(join(roots.admin, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, { ...STATIC_OPTIONS, root: roots.web, prefix: '/' });
  }
  if (hasAdmin) {
    await app.register(fastifyStatic, {
      ...STATIC_OPTIONS,
      root: roots.admin,
      prefix: '/admin/',
      decorateReply: !hasWeb,
    });
  }
  return function spaFallback(url: string, method: string, reply: FastifyReply): boolean {
    if (method !== 'GET' && method !== 'HEAD') return false;
    const path = url.split('?')[0] ?? '/';
    if (API_PREFIXES.some((prefix) => path.startsWith(prefix))) return false;
    if (/\.\w+$/.test(path)) return false;
    const isAdmin = path === '/admin' || path.startsWith('/admin/');
    if (isAdmin ? !hasAdmin : !hasWeb) return false;
    reply.header('Cache-Control', 'no-cache');
    reply.sendFile('index.html', isAdmin ? roots.admin : roots.web);
    return true;
  };
}

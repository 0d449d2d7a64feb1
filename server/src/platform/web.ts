import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

const API_PREFIXES = ['/go_user/', '/obj/', '/docs'];

/** Hashed assets never change: cache them for a year; everything else is revalidated. */
function cacheHeaders(reply: FastifyReply, path: string) {
  const hashed = /[/\\]assets[/\\][^/\\]+-[A-Za-z0-9_-]{8,}\.\w+$/.test(path);
  reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
}

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
    await app.register(fastifyStatic, { root: roots.web, prefix: '/', setHeaders: cacheHeaders, index: 'index.html' });
  }
  if (hasAdmin) {
    await app.register(fastifyStatic, {
      root: roots.admin,
      prefix: '/admin/',
      decorateReply: !hasWeb,
      setHeaders: cacheHeaders,
      index: 'index.html',
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

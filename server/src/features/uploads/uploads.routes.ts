import { resolve } from 'node:path';
import { TASK_PROOF_UPLOADS_PER_HOUR, UPLOAD_TYPES, UPLOADS_URL_PREFIX } from '@kamai/contract';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { sendError } from '../../platform/error-handler';
import { AppError } from '../../platform/errors';
import { HOUR_S, type RateLimit, type RateLimits } from '../../platform/rate-limit';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { sharedSecret } from '../../platform/secrets';
import { purposesOf } from './uploads.queries';
import { createUploadsService, type UploadFiles, type UploadsService } from './uploads.service';
import { createUrlSigner, type UrlSigner } from './uploads.signing';
import { diskFileStore, type FileStore } from './uploads.store';

function uploadsHandlers(uploads: UploadsService, proofUploads: RateLimit, signer: UrlSigner): Handlers {
  return {
    adminToolUpload: async (ctx) => uploads.upload(ctx.actor, await ctx.file?.(), { purpose: 'public' }),
    // A proof task's screenshot: images only (docs/decisions/task-verification.md).
    // Per user and hour: every stored file stays, so a script must not fill the disk with "proof".
    taskProofUpload: async (ctx) => {
      const taken = await proofUploads.take(String(ctx.actor.id));
      if (!taken.ok) throw new AppError('too_many_requests', { seconds: taken.retryAfterSeconds });
      // Private: the uploader gets a signed URL to show it; only they may submit it.
      const stored = await uploads.upload(ctx.actor, await ctx.file?.(), { imagesOnly: true, purpose: 'proof' });
      return { ...stored, url: signer.sign(stored.url) };
    },
  };
}

const TYPE_BY_EXT = new Map<string, string>(Object.entries(UPLOAD_TYPES).map(([type, { ext }]) => [ext, type]));
const NAME_RE = /^([0-9a-f]{64})\.([a-z0-9]+)$/;

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` of a file of `size` bytes; undefined when unsatisfiable. */
function parseRange(header: string, size: number): { start: number; end: number } | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start <= end && start < size ? { start, end } : undefined;
}

/**
 * Serves stored uploads at `/uploads/<sha256>.<ext>`: their own type, `nosniff`, single byte ranges
 * for video players. Only hash-shaped names are looked up. A file an operator published is public and
 * cached for a year (a name is its content); a proof screenshot only with a valid signature (its owner's
 * and staff's answers carry one), cached privately; anything else is not found, alike.
 */
export function serveUploads(app: FastifyInstance, store: FileStore, db: Db, signer: UrlSigner) {
  app.get(`${UPLOADS_URL_PREFIX}:name`, { schema: { hide: true } }, async (request, reply) => {
    const { name } = request.params as { name: string };
    const match = NAME_RE.exec(name);
    const type = match?.[2] ? TYPE_BY_EXT.get(match[2]) : undefined;
    const purposes = type ? await purposesOf(db, name) : [];
    const isPublic = purposes.includes('public');
    const allowed = isPublic || (purposes.length > 0 && signer.verify(name, request.query as Record<string, unknown>));
    const size = type && allowed ? await store.size(name) : undefined;
    if (!match || !type || size === undefined) return sendError(request, reply, 'not_found', 404, {});

    const etag = `"${match[1]}"`;
    reply
      .header('Content-Type', type)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', isPublic ? 'public, max-age=31536000, immutable' : 'private, max-age=86400')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Accept-Ranges', 'bytes')
      .header('ETag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();

    const rangeHeader = request.headers.range;
    if (rangeHeader) {
      const range = parseRange(rangeHeader, size);
      if (!range) return reply.code(416).header('Content-Range', `bytes */${size}`).send();
      return reply
        .code(206)
        .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
        .header('Content-Length', range.end - range.start + 1)
        .send(store.read(name, range));
    }
    return reply.header('Content-Length', size).send(store.read(name));
  });
}

/** Admin uploads and the files they serve. `store`: where uploads are kept; `DATA_DIR/uploads` when absent. */
export async function register(
  app: FastifyInstance,
  deps: FeatureDeps & { store?: FileStore; rates: RateLimits },
): Promise<UploadFiles> {
  const { db, config, now } = deps;
  const store = deps.store ?? diskFileStore(resolve(config.DATA_DIR, 'uploads'));
  const uploads = createUploadsService({ db, store, tempDir: resolve(config.DATA_DIR, 'tmp') });
  const proofUploads = deps.rates.limit('proof-upload:user', TASK_PROOF_UPLOADS_PER_HOUR, HOUR_S);
  const signer = createUrlSigner(await sharedSecret(db, 'upload_url_secret', config.UPLOAD_URL_SECRET), now);
  registerRoutes(app, uploadsHandlers(uploads, proofUploads, signer));
  serveUploads(app, store, db, signer);
  // What other features may ask of the stored files.
  return {
    ownProof: uploads.ownProof,
    signUrl: signer.sign,
    dropProofsOf: uploads.dropProofsOf,
    removeFiles: uploads.removeFiles,
  };
}

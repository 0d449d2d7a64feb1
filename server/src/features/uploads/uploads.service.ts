import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import {
  UPLOAD_FIELD,
  UPLOAD_IMAGE_MAX_PIXELS,
  UPLOAD_IMAGE_MAX_SIDE,
  UPLOAD_TYPES,
  UPLOADS_URL_PREFIX,
  type UploadData,
  type UploadType,
} from '@kamai/contract';
import { imageSize } from 'image-size';
import type { Db, Executor } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { AppError } from '../../platform/errors';
import type { Actor } from '../../platform/routes';
import * as q from './uploads.queries';
import { uploadNameOf } from './uploads.signing';
import { claimsMatch, SNIFF_BYTES, sniffType } from './uploads.sniff';
import type { FileStore } from './uploads.store';

/** One file part of a multipart request, as @fastify/multipart hands it over. */
export interface IncomingFile {
  fieldname: string;
  filename: string;
  mimetype: string;
  file: Readable & { truncated?: boolean };
}

const MB = 1024 * 1024;
const IMAGE_KINDS: Partial<Record<UploadType, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

/**
 * Receives an operator's upload: streams it to a temporary file while hashing it, decides its type
 * from its first bytes, refuses a wrong or mismatched type, an oversize file (413) or an image of
 * absurd dimensions, and only then stores it under its SHA-256. A refused file leaves nothing behind.
 */
export function createUploadsService({ db, store, tempDir }: { db: Db; store: FileStore; tempDir: string }) {
  async function receive(incoming: IncomingFile, tempPath: string, imagesOnly: boolean) {
    const hash = createHash('sha256');
    const out = createWriteStream(tempPath);
    // Kept, not thrown from the stream: a full disk must answer 500 through the envelope, not crash.
    let writeError: Error | undefined;
    out.on('error', (error) => {
      writeError = error;
    });
    let head = Buffer.alloc(0);
    let type: UploadType | undefined;
    let size = 0;
    try {
      for await (const chunk of incoming.file as AsyncIterable<Buffer>) {
        if (!type) {
          head = Buffer.concat([head, chunk]).subarray(0, SNIFF_BYTES);
          if (head.length >= SNIFF_BYTES) {
            type = sniffType(head);
            if (!type || (imagesOnly && !IMAGE_KINDS[type])) throw new AppError('upload_type_unsupported');
            if (!claimsMatch(type, incoming.filename, incoming.mimetype)) throw new AppError('upload_type_mismatch');
          }
        }
        size += chunk.length;
        if (type && size > UPLOAD_TYPES[type].maxBytes) {
          throw new AppError('upload_too_large', { maxMb: UPLOAD_TYPES[type].maxBytes / MB });
        }
        hash.update(chunk);
        if (!out.write(chunk)) await once(out, 'drain');
      }
      if (incoming.file.truncated)
        throw new AppError('upload_too_large', { maxMb: UPLOAD_TYPES['video/mp4'].maxBytes / MB });
      if (!type) throw new AppError(size === 0 ? 'upload_file_missing' : 'upload_type_unsupported');
    } catch (error) {
      // A multipart body cut short or malformed fails the part's stream: the client's fault, not ours.
      if (error instanceof AppError) throw error;
      throw Object.assign(new AppError('validation_failed', { fields: { file: 'upload_file_missing' } }), {
        cause: error,
      });
    } finally {
      out.end();
      await finished(out).catch(() => undefined);
    }
    if (writeError) throw writeError;
    return { type, size, sha256: hash.digest('hex') };
  }

  async function dimensionsOf(type: UploadType, tempPath: string) {
    const kind = IMAGE_KINDS[type];
    if (!kind) return { width: null, height: null };
    let width: number | undefined;
    let height: number | undefined;
    try {
      const size = imageSize(await readFile(tempPath));
      if (size.type === kind) ({ width, height } = size);
    } catch {
      // falls through to the refusal below
    }
    if (!width || !height) throw new AppError('upload_image_unreadable');
    if (width > UPLOAD_IMAGE_MAX_SIDE || height > UPLOAD_IMAGE_MAX_SIDE || width * height > UPLOAD_IMAGE_MAX_PIXELS) {
      throw new AppError('upload_dimensions', {
        maxSide: UPLOAD_IMAGE_MAX_SIDE,
        maxMegapixels: UPLOAD_IMAGE_MAX_PIXELS / 1_000_000,
      });
    }
    return { width, height };
  }

  /**
   * An operator's upload (images and video, `public`), or with `imagesOnly` a user's screenshot for a
   * task proof (`proof`: private). The row records who stored it and what for.
   */
  async function upload(
    actor: Actor,
    incoming: IncomingFile | undefined,
    options: { imagesOnly?: boolean; purpose?: q.UploadPurpose } = {},
  ): Promise<UploadData> {
    if (!incoming || incoming.fieldname !== UPLOAD_FIELD) {
      incoming?.file.resume();
      throw new AppError('upload_file_missing');
    }
    await mkdir(tempDir, { recursive: true });
    const tempPath = join(tempDir, `${randomUUID()}.part`);
    try {
      const { type, size, sha256 } = await receive(incoming, tempPath, options.imagesOnly ?? false);
      const { width, height } = await dimensionsOf(type, tempPath);
      const name = `${sha256}.${UPLOAD_TYPES[type].ext}`;
      await store.put(tempPath, name);
      const purpose = options.purpose ?? 'public';
      await q.insertUpload(db, { name, ownerId: actor.id, purpose });
      // An operator's upload is an admin write, audited; a user's proof is not (its row goes with the
      // account, and the audit log, kept for good, must not name the user's file).
      if (purpose === 'public') {
        await writeAudit(db, {
          actorId: actor.id,
          action: 'upload.add',
          target: `upload:${name}`,
          after: { type, size, width, height },
          requestId: actor.requestId,
        });
      }
      return { url: `${UPLOADS_URL_PREFIX}${name}`, type, size, sha256, width, height };
    } finally {
      await rm(tempPath, { force: true });
    }
  }

  /**
   * The bare URL (`/uploads/<name>`, no signature) of a stored proof screenshot the user uploaded
   * for proofs; undefined for anything else (another user's proof, an operator's image, no file).
   */
  async function ownProof(userId: number, url: string): Promise<string | undefined> {
    const name = uploadNameOf(url);
    if (!name || !(await q.ownsUpload(db, name, userId, 'proof'))) return undefined;
    if ((await store.size(name)) === undefined) return undefined;
    return `${UPLOADS_URL_PREFIX}${name}`;
  }

  /** Drops a deleted account's proof uploads, in its transaction; answers the files to delete after it. */
  function dropProofsOf(tx: Executor, userId: number) {
    return q.deleteProofUploads(tx, userId);
  }

  /** Deletes stored files (after the transaction that dropped their rows committed). */
  async function removeFiles(names: string[]) {
    for (const name of names) await store.remove(name);
  }

  return { upload, ownProof, dropProofsOf, removeFiles };
}

export type UploadsService = ReturnType<typeof createUploadsService>;

/** What other features may ask of the stored files (uploads.routes.ts's `register`). */
export interface UploadFiles {
  ownProof: UploadsService['ownProof'];
  /** The signed URL of a private upload (a proof), for its owner's and staff's answers. */
  signUrl(url: string): string;
  dropProofsOf: UploadsService['dropProofsOf'];
  removeFiles: UploadsService['removeFiles'];
}

import { z } from 'zod';
import { endpoints } from './endpoints';
import type { RouteDef } from './route-def';

const MB = 1024 * 1024;

/** What may be uploaded, decided by the file's bytes; the stored file's extension and size limit. */
export const UPLOAD_TYPES = {
  'image/png': { ext: 'png', maxBytes: 5 * MB },
  'image/jpeg': { ext: 'jpg', maxBytes: 5 * MB },
  'image/webp': { ext: 'webp', maxBytes: 5 * MB },
  'video/mp4': { ext: 'mp4', maxBytes: 100 * MB },
} as const;
export type UploadType = keyof typeof UPLOAD_TYPES;
export const UPLOAD_MAX_BYTES = 100 * MB;
/** Images larger than this on a side, or in pixels, are refused (decompression bombs). */
export const UPLOAD_IMAGE_MAX_SIDE = 10_000;
export const UPLOAD_IMAGE_MAX_PIXELS = 50_000_000;
/** Stored files are served at `/uploads/<sha256>.<ext>`, immutable. */
export const UPLOADS_URL_PREFIX = '/uploads/';
/** The multipart field that carries the file. */
export const UPLOAD_FIELD = 'file';

export const uploadData = z.object({
  /** Stable relative URL of the stored file, e.g. "/uploads/9f86…08.png". */
  url: z.string(),
  type: z.enum(Object.keys(UPLOAD_TYPES) as [UploadType, ...UploadType[]]),
  size: z.number().int(),
  sha256: z.string(),
  /** Images only. */
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});
export type UploadData = z.infer<typeof uploadData>;

export const uploadRoutes = {
  adminToolUpload: {
    ...endpoints.adminToolUpload,
    policy: 'admin',
    summary:
      'Uploads one file (multipart/form-data, field `file`): PNG, JPEG or WebP up to 5 MB, MP4 up to 100 MB, ' +
      'checked by its bytes and stored under its SHA-256',
    tag: 'uploads',
    multipart: { field: UPLOAD_FIELD },
    data: uploadData,
  },
} as const satisfies Record<string, RouteDef>;

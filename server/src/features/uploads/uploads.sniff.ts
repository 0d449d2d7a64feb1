import type { UploadType } from '@kamai/contract';

/** Bytes needed to tell the accepted types apart. */
export const SNIFF_BYTES = 12;

/** ISO base-media brands of MP4 files (QuickTime `qt  ` and 3GP are not accepted). */
const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'mp41',
  'mp42',
  'avc1',
  'dash',
  'M4V ',
  'MSNV',
]);

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The type of a file from its first bytes (magic numbers), whatever its name or declared type says. */
export function sniffType(head: Buffer): UploadType | undefined {
  if (head.length < SNIFF_BYTES) return undefined;
  if (head.subarray(0, 8).equals(PNG)) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (head.toString('latin1', 4, 8) === 'ftyp' && MP4_BRANDS.has(head.toString('latin1', 8, 12))) return 'video/mp4';
  return undefined;
}

const EXTENSIONS: Record<UploadType, string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/webp': ['webp'],
  'video/mp4': ['mp4', 'm4v'],
};

/**
 * Whether the name's extension and the declared type agree with the bytes: a PNG called `.mp4`, or
 * sent as `video/mp4`, is refused. A name without extension and `application/octet-stream` say nothing.
 */
export function claimsMatch(type: UploadType, filename: string, declared: string): boolean {
  const dot = filename.lastIndexOf('.');
  const ext = dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
  if (ext && !EXTENSIONS[type].includes(ext)) return false;
  const mime = declared.split(';')[0]?.trim().toLowerCase() ?? '';
  return mime === '' || mime === 'application/octet-stream' || mime === type;
}

import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';

const UPLOAD = '/go_user/api/v1/admin/tool/upload';
let ctx: TestContext;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kamai-uploads-'));
  ctx = await createTestContext({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function png(width: number, height: number, extra = 0) {
  const head = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'latin1');
  head.writeUInt32BE(width, 16);
  head.writeUInt32BE(height, 20);
  head[24] = 8;
  head[25] = 2;
  return Buffer.concat([head, Buffer.alloc(extra, 7)]);
}

function jpeg(width: number, height: number) {
  return Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'),
    Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 255, width >> 8, width & 255, 3]),
    Buffer.from([1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xff, 0xd9]),
  ]);
}

function webp(width: number, height: number) {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(22, 4);
  b.write('WEBP', 8, 'latin1');
  b.write('VP8X', 12, 'latin1');
  b.writeUInt32LE(10, 16);
  b.writeUIntLE(width - 1, 24, 3);
  b.writeUIntLE(height - 1, 27, 3);
  return b;
}

function mp4(bytes = 4096) {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftypisom', 4, 'latin1');
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write('isomiso2', 16, 'latin1');
  return Buffer.concat([ftyp, Buffer.alloc(bytes, 1)]);
}

const BOUNDARY = '----kamai-test-boundary';

function multipart(parts: { field?: string; filename: string; type: string; content: Buffer }[]) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.field ?? 'file'}"; filename="${part.filename}"\r\n` +
          `Content-Type: ${part.type}\r\n\r\n`,
      ),
      part.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

async function upload(
  filename: string,
  type: string,
  content: Buffer,
  options: { token?: string; field?: string } = {},
) {
  const token = options.token ?? (await ctx.adminToken());
  const res = await ctx.app.inject({
    method: 'POST',
    url: UPLOAD,
    payload: multipart([{ field: options.field, filename, type, content }]),
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  });
  return { status: res.statusCode, body: res.json() };
}

const stored = () => (existsSync(join(dataDir, 'uploads')) ? readdirSync(join(dataDir, 'uploads')).sort() : []);
const leftovers = () => (existsSync(join(dataDir, 'tmp')) ? readdirSync(join(dataDir, 'tmp')) : []);
const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

describe('accepted uploads', () => {
  it('stores a PNG under its hash and serves it with its type, nosniff, a year of cache and ranges', async () => {
    const content = png(640, 480, 100);
    const res = await upload('banner.png', 'image/png', content);
    const hash = sha256(content);
    expect(res.body).toMatchObject({
      code: 200,
      data: {
        url: `/uploads/${hash}.png`,
        type: 'image/png',
        size: content.length,
        sha256: hash,
        width: 640,
        height: 480,
      },
    });
    expect(readFileSync(join(dataDir, 'uploads', `${hash}.png`)).equals(content)).toBe(true);
    expect(leftovers()).toEqual([]);

    const served = await ctx.app.inject({ method: 'GET', url: res.body.data.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.rawPayload.equals(content)).toBe(true);

    const part = await ctx.app.inject({ method: 'GET', url: res.body.data.url, headers: { range: 'bytes=1-3' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1-3/${content.length}`);
    expect(part.rawPayload.toString('latin1')).toBe('PNG');
    const again = await ctx.app.inject({
      method: 'GET',
      url: res.body.data.url,
      headers: { 'if-none-match': `"${hash}"` },
    });
    expect(again.statusCode).toBe(304);

    expect((await upload('copy.png', 'application/octet-stream', content)).body.data.url).toBe(res.body.data.url);
  });

  it('accepts JPEG, WebP and MP4 by their bytes', async () => {
    expect((await upload('photo.jpeg', 'image/jpeg', jpeg(800, 600))).body.data).toMatchObject({
      type: 'image/jpeg',
      width: 800,
      height: 600,
    });
    const w = await upload('pic', 'application/octet-stream', webp(300, 200));
    expect(w.body.data).toMatchObject({ type: 'image/webp', width: 300, height: 200 });
    expect(w.body.data.url).toMatch(/\.webp$/);
    const video = await upload('intro.mp4', 'video/mp4', mp4());
    expect(video.body.data).toMatchObject({ type: 'video/mp4', width: null, height: null });
    const served = await ctx.app.inject({ method: 'GET', url: video.body.data.url });
    expect(served.headers['content-type']).toBe('video/mp4');
  });
});

describe('refused uploads leave nothing stored', () => {
  it.each([
    [
      'text named .png',
      'notes.png',
      'image/png',
      Buffer.from('just some text, not an image at all'),
      'upload_type_unsupported',
    ],
    [
      'HTML named .png',
      'x.png',
      'image/png',
      Buffer.from('<html><script>alert(1)</script></html>'),
      'upload_type_unsupported',
    ],
    ['a PNG named .mp4', 'clip.mp4', 'video/mp4', png(10, 10), 'upload_type_mismatch'],
    ['a PNG sent as video/mp4', 'clip.png', 'video/mp4', png(10, 10), 'upload_type_mismatch'],
    ['an MP4 named .html', 'page.html', 'application/octet-stream', mp4(), 'upload_type_mismatch'],
    [
      'a PNG header over garbage',
      'bad.png',
      'image/png',
      Buffer.concat([png(1, 1).subarray(0, 12), Buffer.alloc(64)]),
      'upload_image_unreadable',
    ],
    ['100000 × 100000 pixels', 'bomb.png', 'image/png', png(100_000, 100_000), 'upload_dimensions'],
    ['9000 × 9000 pixels (81 MP)', 'big.png', 'image/png', png(9000, 9000), 'upload_dimensions'],
    ['an empty file', 'empty.png', 'image/png', Buffer.alloc(0), 'upload_file_missing'],
  ])('%s', async (_name, filename, type, content, key) => {
    const before = stored();
    const res = await upload(filename, type, content);
    expect(res.body.key).toBe(key);
    expect(res.status).toBe(res.body.code);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(stored()).toEqual(before);
    expect(leftovers()).toEqual([]);
  });

  it('answers 413 for an image over 5 MB', async () => {
    const before = stored();
    const res = await upload('huge.png', 'image/png', png(100, 100, 5 * 1024 * 1024));
    expect(res.body).toMatchObject({
      code: 413,
      key: 'upload_too_large',
      message: 'The file is too large: at most 5 MB for this type',
    });
    expect(res.status).toBe(413);
    expect(stored()).toEqual(before);
    expect(leftovers()).toEqual([]);
  });

  it('ignores a path in the file name: the stored name is the hash', async () => {
    const content = png(20, 20, 1);
    const res = await upload('../../../../escaped-kamai.png', 'image/png', content);
    expect(res.body.data.url).toBe(`/uploads/${sha256(content)}.png`);
    expect(stored().every((name) => /^[0-9a-f]{64}\.(png|jpg|webp|mp4)$/.test(name))).toBe(true);
    expect(existsSync(join(dataDir, '..', 'escaped-kamai.png'))).toBe(false);
    expect(readdirSync(dataDir).sort()).toEqual(['tmp', 'uploads']);
  });

  it('serves only stored, hash-named files', async () => {
    for (const url of [
      '/uploads/..%2F..%2Fetc%2Fpasswd',
      '/uploads/%2e%2e%2fpackage.json',
      `/uploads/${'a'.repeat(64)}.png`,
      `/uploads/${'a'.repeat(64)}.html`,
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 404, key: 'not_found' });
    }
  });

  it('is for operators only, and needs a file', async () => {
    const user = await ctx.newUser();
    const before = stored();
    const forbidden = await upload('a.png', 'image/png', png(5, 5, 3), { token: user.token });
    expect(forbidden.body).toMatchObject({ code: 403, key: 'forbidden' });
    const anonymous = await ctx.app.inject({ method: 'POST', url: UPLOAD, payload: multipart([]) });
    expect(anonymous.statusCode).toBe(401);
    expect(stored()).toEqual(before);

    expect((await upload('a.png', 'image/png', png(5, 5), { field: 'other' })).body.key).toBe('upload_file_missing');
    const json = await ctx.post(UPLOAD, { file: 'x' }, { token: await ctx.adminToken() });
    expect(json.body).toMatchObject({ code: 400, key: 'upload_file_missing' });
  });
});

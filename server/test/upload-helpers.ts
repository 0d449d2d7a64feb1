import type { TestContext } from './helpers';

/** A PNG header of a 390 × 844 screenshot (what a phone uploads), its bytes made distinct by `seed`. */
export function png(seed: number) {
  const head = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'latin1');
  head.writeUInt32BE(390, 16);
  head.writeUInt32BE(844, 20);
  head[24] = 8;
  head[25] = 2;
  return Buffer.concat([head, Buffer.alloc(64, seed)]);
}

const BOUNDARY = '----kamai-test-upload-boundary';

/** One file posted as multipart form data (field `file`) to `url`, as the app and the console send it. */
export async function uploadFile(
  ctx: TestContext,
  url: string,
  token: string,
  content: Buffer,
  filename = 'shot.png',
  type = 'image/png',
) {
  const payload = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  const res = await ctx.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  });
  return { status: res.statusCode, body: res.json() };
}

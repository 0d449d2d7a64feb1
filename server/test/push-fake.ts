import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local push service following RFC 8030 (push message delivery), RFC 8292 (VAPID) and RFC 8291
 * (aes128gcm message encryption), the way FCM, Mozilla autopush and Apple answer: 201 on acceptance,
 * 404/410 for a subscription that is gone. Each path can be told what to answer; every request is
 * recorded with its headers and body.
 */
export interface ReceivedPush {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export async function startFakePushService() {
  const received: ReceivedPush[] = [];
  const answers = new Map<string, (number | { status: number; retryAfter: string })[]>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
      const queue = answers.get(path);
      const next = queue && queue.length > 0 ? queue.shift() : 201;
      const status = typeof next === 'object' ? next.status : (next ?? 201);
      // RFC 8030 §8.4: a push service that is overloaded may answer 429 with Retry-After.
      const retryAfter = typeof next === 'object' ? { 'retry-after': next.retryAfter } : {};
      const location =
        status === 201
          ? `${path}/msg/${received.length}`
          : status >= 300 && status < 400
            ? `${origin}/redirected`
            : undefined;
      response.writeHead(status, { ...(location ? { location } : {}), ...retryAfter });
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    received,
    /** The next answers for `path`, in order (then 201 again); an object adds a Retry-After header. */
    answer(path: string, ...statuses: (number | { status: number; retryAfter: string })[]) {
      answers.set(path, statuses);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A browser's side of a subscription: its P-256 key pair and auth secret, and how to read a message. */
export function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  const publicKey = ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    json: {
      endpoint,
      expirationTime: null,
      keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') },
    },
    /** RFC 8291 §3.4 + RFC 8188: the plaintext of an aes128gcm body sent to this subscription. */
    decrypt(body: Buffer): string {
      const salt = body.subarray(0, 16);
      const idLength = body.readUInt8(20);
      const senderKey = body.subarray(21, 21 + idLength);
      const cipherText = body.subarray(21 + idLength);
      const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();
      const shared = ecdh.computeSecret(senderKey);
      const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), publicKey, senderKey, Buffer.from([1])]);
      const ikm = hmac(hmac(auth, shared), keyInfo);
      const prk = hmac(salt, ikm);
      const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
      const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(cipherText.subarray(cipherText.length - 16));
      const padded = Buffer.concat([decipher.update(cipherText.subarray(0, cipherText.length - 16)), decipher.final()]);
      // The last record ends with the delimiter 0x02, then zero padding.
      const end = padded.lastIndexOf(2);
      return padded.subarray(0, end).toString('utf8');
    },
  };
}

/**
 * Checks `Authorization: vapid t=<JWT>, k=<public key>` as a push service does (RFC 8292 §2-3): the
 * ES256 signature verifies with `k`, `aud` is the push service's origin, `exp` is within 24 hours.
 * Answers the JWT's claims and `k`.
 */
export function verifyVapid(header: string | undefined, audience: string, nowMs: number) {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? '');
  if (!match) throw new Error(`not a VAPID Authorization header: ${header}`);
  const [, token = '', k = ''] = match;
  const [head = '', claims = '', signature = ''] = token.split('.');
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('VAPID signature does not verify with k');
  const header0 = JSON.parse(Buffer.from(head, 'base64url').toString());
  const payload = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  if (header0.alg !== 'ES256') throw new Error(`alg ${header0.alg}`);
  if (payload.aud !== audience) throw new Error(`aud ${payload.aud} is not ${audience}`);
  if (payload.exp * 1000 <= nowMs || payload.exp * 1000 > nowMs + 24 * 3600 * 1000)
    throw new Error(`exp ${payload.exp}`);
  return { ...payload, k };
}

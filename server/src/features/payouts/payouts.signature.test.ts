import { describe, expect, it } from 'vitest';
import { signingString, signParams, verifySignature } from './payouts.signature';

const secret = 'sandbox-secret-0123456789';
const params = { ts: '1700000000', status: 'failed', orderNo: '17', amount: '120.50', reason: 'Bank down' };
// printf '%s' 'amount=120.50&orderNo=17&reason=Bank down&status=failed&ts=1700000000' | openssl dgst -sha256 -hmac "$secret"
const expected = '73fe9df62dd52c158f3c50d04a3af23ae6ec62c5480570258600c4aa83fbc4bc';

describe('masterpay callback signature', () => {
  it('signs the parameters but sign, sorted by name, as k=v&k=v, with HMAC-SHA256 hex', () => {
    expect(signingString({ ...params, sign: 'x' })).toBe(
      'amount=120.50&orderNo=17&reason=Bank down&status=failed&ts=1700000000',
    );
    expect(signParams(params, secret)).toBe(expected);
  });

  it('accepts the right signature in either case and nothing else', () => {
    expect(verifySignature({ ...params, sign: expected }, secret)).toBe(true);
    expect(verifySignature({ ...params, sign: expected.toUpperCase() }, secret)).toBe(true);
    expect(verifySignature({ ...params, amount: '120.51', sign: expected }, secret)).toBe(false);
    expect(verifySignature({ ...params, extra: '', sign: expected }, secret)).toBe(false);
    expect(verifySignature({ ...params, sign: expected }, `${secret}x`)).toBe(false);
    expect(verifySignature({ ...params, sign: expected.slice(2) }, secret)).toBe(false);
    expect(verifySignature(params, secret)).toBe(false);
  });
});

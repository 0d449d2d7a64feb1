import { describe, expect, it } from 'vitest';
import { addressKey } from './fraud.address';

describe('addressKey', () => {
  it('keeps an IPv4 address and unwraps an IPv4-mapped one', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('compares IPv6 addresses by their /64, however they are written', () => {
    expect(addressKey('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:0DB8:0000:0001:abcd:1234:5678:9abc')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('2001:db8:0:2::1')).not.toBe(addressKey('2001:db8:0:1::1'));
  });

  it('keeps what is not an address as given', () => {
    expect(addressKey('unknown')).toBe('unknown');
  });
});

import { describe, expect, it } from 'vitest';
import { pickLocale } from './locales';
import { formatRupees, parseRupees } from './money';
import { canonicalIdentity, normalizeUsername, usernameProblem } from './validation';

describe('usernames', () => {
  it.each([
    ['9876543210', '919876543210'],
    ['+91 98765 43210', '919876543210'],
    ['919876543210', '919876543210'],
    ['98765-43210', '919876543210'],
    ['098765 43210', '919876543210'],
    ['09876543210', '919876543210'],
    ['A.B@Mail.Example.com', 'a.b@mail.example.com'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeUsername(input)).toBe(expected);
  });

  it.each([
    ['x.sam@gmail.com', 'xsam@gmail.com'],
    ['xsam@gmail.com', 'xsam@gmail.com'],
    ['x.sam+1@gmail.com', 'xsam@gmail.com'],
    ['x.s.a.m@googlemail.com', 'xsam@gmail.com'],
    ['ujbqu.del@gmail.com', 'ujbqudel@gmail.com'],
    ['first.last+news@example.co.in', 'first.last@example.co.in'],
    ['919876543210', '919876543210'],
  ])('%s is the identity %s', (username, identity) => {
    expect(canonicalIdentity(username)).toBe(identity);
  });

  it.each([
    ['', 'enter_phone_or_email'],
    ['5876543210', 'phone_format_wrong'],
    ['98765432', 'phone_format_wrong'],
    ['0098765 43210', 'phone_format_wrong'],
    ['05876543210', 'phone_format_wrong'],
    ['a@b', 'enter_valid_email'],
    ['a b@c.de', 'email_plain_address_only'],
    ['abkoz<mallory@evil.co>', 'email_plain_address_only'],
    ['x,attacker@evil.co', 'email_plain_address_only'],
    ['"x"@evil.co', 'email_plain_address_only'],
    ['x@[10.0.0.1]', 'email_plain_address_only'],
    ['x@10.0.0.1', 'enter_valid_email'],
    ['a..b@c.de', 'enter_valid_email'],
  ])('%j is refused with %s', (input, key) => {
    expect(usernameProblem(input)).toBe(key);
  });
});

describe('locales', () => {
  it('honours q-values and both tag forms', () => {
    expect(pickLocale('gu-IN')).toBe('gu_IN');
    expect(pickLocale('gu_IN')).toBe('gu_IN');
    expect(pickLocale('en-US;q=0.2, pa-IN;q=0.8')).toBe('pa_IN');
    expect(pickLocale('ja-JP')).toBe('en_US');
    expect(pickLocale(undefined)).toBe('en_US');
  });
});

describe('money', () => {
  it('formats paise as rupees and parses rupees into paise', () => {
    expect(formatRupees(0n)).toBe('0.00');
    expect(formatRupees(12050n)).toBe('120.50');
    expect(formatRupees(-5n)).toBe('-0.05');
    expect(parseRupees('120.5')).toBe(12050n);
    expect(parseRupees(100)).toBe(10000n);
    expect(parseRupees('1.234')).toBeUndefined();
    expect(parseRupees('-1')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { whatsAppLink } from './share-link';

describe('whatsAppLink', () => {
  it('encodes the whole message, link and Indic text included, into wa.me click-to-chat', () => {
    const link = whatsAppLink('कोड AB12 https://kamai.example/r/AB12?x=1&y=2');
    expect(link.startsWith('https://wa.me/?text=')).toBe(true);
    expect(new URL(link).searchParams.get('text')).toBe('कोड AB12 https://kamai.example/r/AB12?x=1&y=2');
  });
});

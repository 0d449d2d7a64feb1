import { describe, expect, it } from 'vitest';
import { csvLine, csvText, csvValue } from './csv';

describe('csv', () => {
  it('quotes values holding a comma, quote or line break, doubling the quotes', () => {
    expect(csvValue('{"taskId":3,"level":1}')).toBe('"{""taskId"":3,""level"":1}"');
    expect(csvValue('a\nb')).toBe('"a\nb"');
    expect(csvValue('-20.00')).toBe('-20.00');
    expect(csvValue(null)).toBe('');
  });

  it('defuses user text a spreadsheet would run as a formula', () => {
    expect(csvText('=HYPERLINK("http://x")@evil.com')).toBe('"\'=HYPERLINK(""http://x"")@evil.com"');
    expect(csvText('+919876543210')).toBe("'+919876543210");
    expect(csvText('919876543210')).toBe('919876543210');
  });

  it('ends each record with CRLF', () => {
    expect(csvLine(['1', 'x'])).toBe('1,x\r\n');
  });
});

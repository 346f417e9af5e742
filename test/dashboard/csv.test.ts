/** The dashboard's CSV fields: a spreadsheet opening an export never runs what a value says. */
import { describe, expect, it } from 'vitest';
import { csvField } from '../../server/http/csv.js';

describe('csvField', () => {
  it('neutralises values a spreadsheet would read as a formula', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    for (const lead of ['+', '-', '@', '\t']) expect(csvField(`${lead}1+1`)).toBe(`'${lead}1+1`);
  });

  it('quotes separators, leaves numbers and plain text alone, and writes null as empty', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField(-1200)).toBe('-1200');
    expect(csvField('/v1/payments')).toBe('/v1/payments');
    expect(csvField(null)).toBe('');
  });
});

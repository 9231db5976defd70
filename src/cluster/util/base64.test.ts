import { describe, expect, it } from 'vitest';
import { base64RawURL, base64RawURLDecode, base64Std, base64StdText } from './base64';

// expected values from Go's encoding/base64 (the same as Node's Buffer)
describe('base64', () => {
  it.each([
    { name: 'empty', text: '' },
    { name: 'one byte', text: 'f' },
    { name: 'two bytes', text: 'fo' },
    { name: 'three bytes', text: 'foo' },
    { name: 'UTF-8', text: '한국어 ✓ {"alg":"RS256"}' },
  ])('$name', ({ text }) => {
    const bytes = new TextEncoder().encode(text);
    expect(base64Std(bytes)).toBe(Buffer.from(text).toString('base64'));
    expect(base64StdText(text)).toBe(Buffer.from(text).toString('base64'));
    expect(base64RawURL(bytes)).toBe(Buffer.from(text).toString('base64url'));
    expect(new TextDecoder().decode(base64RawURLDecode(base64RawURL(bytes))!)).toBe(text);
  });
  it('every length from 0 to 40 and a 30 KB input (Buffer)', () => {
    const all = Uint8Array.from({ length: 30_000 }, (_, i) => (i * 131 + 7) & 255);
    for (const n of [...Array.from({ length: 41 }, (_, i) => i), 30_000]) {
      const b = all.subarray(0, n);
      expect(base64Std(b)).toBe(Buffer.from(b).toString('base64'));
      expect(base64RawURL(b)).toBe(Buffer.from(b).toString('base64url'));
    }
  });
  it.each(['a', 'ab+c', 'ab=', 'abcde'])('%s is not raw base64url', (s) => expect(base64RawURLDecode(s)).toBeNull());
});

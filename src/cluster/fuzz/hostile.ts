/**
 * Hostile-input arbitraries shared by the fuzz tests (issue 8 §5, docs/style.md#hostile-input):
 * markup, unicode (RTL marks, emoji, combining characters), control characters, prototype
 * keys, huge strings, and values of the wrong type.
 */
import fc from 'fast-check';

/** Strings a user (or an attacker with a share link) might put in a name, label or annotation. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '"><svg onload=alert(1)>',
    "'; DROP TABLE pods; --",
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    '{{7*7}}',
    '${process.exit(1)}',
    'javascript:alert(1)',
    '%%{init: {"theme":"dark"}}%%',
    'click A call alert(1)',
    '#59;',
    'A->>B: hi',
    'end',
    'note over A: x',
    '\u202e\u0645\u0631\u062d\u0628\u0627',
    '🐳🚢\u200d',
    'e\u0301\u0301\u0301',
    '\u0000\u0007\u001b[31m',
    '\r\n\t',
    'ü'.repeat(300),
    '\\"\\\'`',
    '&lt;b&gt;',
    '&#x3C;b&#x3E;',
    '<b>bold</b>',
    '</div></foreignObject><script>x</script>',
  ),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 20 }).map((s) => s.repeat(1 + (s.length % 7) * 300)),
);

/** Values of any JSON type, for fields that expect one type. */
export const wrongTypeValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer(), hostileString), { maxLength: 4 }),
  fc.dictionary(hostileString, fc.oneof(hostileString, fc.integer()), { maxKeys: 4 }),
);

/** A JSON object of depth `d` (arrays and maps nested), for the deep-nesting cases. */
export function nested(d: number, leaf: unknown = 'x'): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < d; i++) v = i % 2 ? [v] : { k: v };
  return v;
}

/**
 * Hostile user text for the UI fuzz tests: markup, entity look-alikes, Mermaid syntax,
 * unicode and control characters. Never empty (an empty name is not a stored object's name,
 * and conditional rendering on "" would change the markup legitimately).
 */
import fc from 'fast-check';

export const hostileText: fc.Arbitrary<string> = fc
  .oneof(
    fc.constantFrom(
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '"><svg onload=alert(1)>',
      "' onmouseover='alert(1)",
      '</pre><iframe src=javascript:alert(1)>',
      '&lt;b&gt;',
      '&amp;',
      '<!-- x -->',
      '<![CDATA[x]]>',
      '%%{init: {"securityLevel":"loose"}}%%',
      'A->>B: x',
      'end',
      'Note over P0: x',
      'participant X',
      '#59;#35;',
      'a;b#c',
      'click P0 href "javascript:alert(1)"',
      '{{x}}',
      '\u202eevil',
      '\u0000\u0008\u001b[2J',
      'line1\nline2\r\nline3',
      '\u2028\u2029',
      '🐳',
      'é\u0301',
      '\uFEFF',
      'x'.repeat(5000),
    ),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }),
    fc
      .array(fc.constantFrom('<', '>', '&', '"', "'", ';', '#', '%', '{', '}', '\n', ':', '-', 'a'), { minLength: 1, maxLength: 30 })
      .map((a) => a.join('')),
  )
  .filter((s) => s.length > 0);

/**
 * Fuzz of the Mermaid text generator (issue 8 §5): hops whose participants and summaries are
 * hostile user text (object names end up in both). Property: the output is exactly one line
 * per participant and per hop, every line has the statement shape to-mermaid.ts writes, and no
 * text carries a character Mermaid treats as syntax (#;<>&%"{}), a line break, or a control
 * character — only its #entity; form.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { toMermaid, escapeMermaidText } from '../../cluster/relay/sequence/to-mermaid';
import type { RelayHop } from '../../cluster/relay/relay-event';
import { hostileText } from './hostile-text';

const hopArb = (i: number): fc.Arbitrary<RelayHop> =>
  fc
    .record({
      from: fc.oneof(hostileText, fc.constantFrom('kubectl', 'kube-apiserver', 'etcd')),
      to: fc.oneof(hostileText, fc.constantFrom('kube-apiserver', 'scheduler', 'kubelet/node-1')),
      kind: fc.constantFrom('request', 'response', 'watch', 'decision', 'note', 'etcd'),
      summary: hostileText,
    })
    .map((h) => ({ ...h, seq: i + 1, time: 0, cause: null }) as RelayHop);

const hopsArb = fc.integer({ min: 1, max: 12 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => hopArb(i))));

/** What a statement's free text may hold after escaping. */
// eslint-disable-next-line no-control-regex
const SAFE_TEXT = /^(?:[^#;<>&%"{}\u0000-\u001f\u007f\u2028\u2029]|#(?:35|59|lt|gt|amp|37|quot|123|125);)+$/u;
const STATEMENT = [/^ {2}participant P\d+ as (.+)$/su, /^ {2}P\d+(?:->>|--\)|-->>)P\d+: (.+)$/su, /^ {2}Note over P\d+(?:,P\d+)?: (.+)$/su];

describe('Mermaid text from hostile hops', () => {
  it('every line is one well-formed statement with inert text', () => {
    fc.assert(
      fc.property(hopsArb, (hops) => {
        const text = toMermaid(hops);
        expect(text.endsWith('\n')).toBe(true);
        const lines = text.slice(0, -1).split('\n');
        const participants = new Set(hops.flatMap((h) => [h.from, h.to])).size;
        expect(lines[0]).toBe('sequenceDiagram');
        expect(lines.length).toBe(1 + participants + hops.length);
        for (const line of lines.slice(1)) {
          const m = STATEMENT.map((re) => re.exec(line)).find(Boolean);
          expect(m, line).toBeTruthy();
          expect(m![1], line).toMatch(SAFE_TEXT);
        }
      }),
      { seed: 23, numRuns: 300 },
    );
  });

  it.each([
    { name: 'statement separator and comment', input: 'a;b%%c', want: 'a#59;b#37;#37;c' },
    { name: 'markup', input: '<b>x</b>', want: '#lt;b#gt;x#lt;/b#gt;' },
    { name: 'line breaks become spaces', input: 'x\ny\r\nz', want: 'x y z' },
    { name: 'only control characters', input: '\u0000\u0007', want: ' ' },
    { name: 'directive braces', input: '%%{init: {}}%%', want: '#37;#37;#123;init: #123;#125;#125;#37;#37;' },
  ])('escapeMermaidText: $name', ({ input, want }) => {
    expect(escapeMermaidText(input)).toBe(want);
  });
});

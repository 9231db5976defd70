/** writeJSON writes exactly JSON.stringify(v, null, 2) + "\n", in pieces. */
import { describe, expect, it } from 'vitest';
import { writeJSON } from './result-json';

const collect = (v: unknown, depth?: number, chunk?: number) => {
  const parts: string[] = [];
  writeJSON(v, (s) => parts.push(s), depth, chunk);
  return parts;
};

describe('writeJSON', () => {
  it.each([
    [
      'a scenario result shape',
      {
        kubernetesVersion: 'v1.33',
        steps: [{ index: 0, results: [{ object: 'configmap/a', warnings: [] }], error: null }],
        snapshots: [],
        final: { objects: [{ metadata: { name: 'a', labels: {} } }], events: [] },
        relay: [
          { seq: 1, cause: null },
          { seq: 2, cause: 1 },
        ],
      },
    ],
    ['undefined fields are left out, undefined list items are null', { a: undefined, b: [undefined, 1], c: { d: undefined } }],
    ['dates and other toJSON values', { t: new Date(0), n: [new Date(1)] }],
    ['scalars at the top', 'text'],
    ['empty containers', { a: [], b: {}, c: [[]], d: [{}] }],
    ['strings that need escaping', { 'k"\n': 'v\u2028\t"' }],
  ])('%s', (_name, v) => {
    expect(collect(v, 3, 1).join('')).toBe(`${JSON.stringify(v, null, 2)}\n`);
  });

  it('writes a large list in pieces of about the chunk size', () => {
    const v = { relay: Array.from({ length: 10_000 }, (_, i) => ({ seq: i, summary: 'x'.repeat(50) })) };
    const parts = collect(v, 3, 64 * 1024);
    expect(parts.join('')).toBe(`${JSON.stringify(v, null, 2)}\n`);
    expect(parts.length).toBeGreaterThan(10);
    expect(Math.max(...parts.map((p) => p.length))).toBeLessThan(64 * 1024 + 200);
  });
});

describe('writeJSON compact (indent 0, what npm run scenario prints without --pretty)', () => {
  it.each([
    [
      'a scenario result shape',
      {
        kubernetesVersion: 'v1.33',
        steps: [{ index: 0, results: [{ object: 'configmap/a', warnings: [] }], error: null }],
        relay: [{ seq: 1, cause: null, summary: 'a → b · c — d' }],
      },
    ],
    ['undefined fields are left out, undefined list items are null', { a: undefined, b: [undefined, 1], c: { d: undefined } }],
    ['dates, empty containers, escapes', { t: new Date(0), a: [], b: {}, c: [[]], 'k"\n': 'v\u2028\t"' }],
  ])('%s', (_name, v) => {
    const parts: string[] = [];
    writeJSON(v, (s) => parts.push(s), 3, 1, 0);
    expect(parts.join('')).toBe(`${JSON.stringify(v)}\n`);
  });
});

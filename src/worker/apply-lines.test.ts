/**
 * The editor's Apply results read as kubectl prints an apply of several objects: every success
 * (after its warnings) first, the errors after them — the order real kubectl v1.32 printed for
 * src/cluster/kubectl/testdata/fidelity/mixed.yaml (testdata fidelity.txt).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { applyLines } from '../ui/editor/apply-lines';

const MIXED = readFileSync(join(__dirname, '../cluster/kubectl/testdata/fidelity/mixed.yaml'), 'utf8');

describe('applyLines', () => {
  it('successes first, then each error, as kubectl', () => {
    const c = new Cluster();
    const results = c.apply(MIXED);
    expect(results.map((r) => r.action)).toEqual(['created', 'error', 'created', 'error']);
    const lines = applyLines(results);
    expect(lines.map((l) => [l.tone, l.text.replace(/:.*$/s, '')])).toEqual([
      ['ok', 'configmap/first created'],
      ['ok', 'configmap/last created'],
      ['error', 'Error from server (Invalid)'],
      ['error', 'Error from server (Invalid)'],
    ]);
    expect(lines.map((l) => l.result)).toEqual([0, 2, 1, 3]);
  });

  it('warnings stay before their own success line', () => {
    const lines = applyLines([
      { object: 'pod/a', action: 'error', namespace: 'default', message: 'boom', warnings: [], documentIndex: 0, line: 1 },
      {
        object: 'endpoints/b',
        action: 'created',
        namespace: 'default',
        warnings: ['v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice'],
        documentIndex: 1,
        line: 5,
      },
    ]);
    expect(lines.map((l) => l.text)).toEqual([
      'Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice',
      'endpoints/b created',
      'boom',
    ]);
  });
});

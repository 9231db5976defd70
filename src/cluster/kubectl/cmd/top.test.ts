/**
 * `kubectl top node` with a dead node, as staging/src/k8s.io/kubectl/pkg/cmd/top/top_node.go
 * RunTopNode and metricsutil PrintNodeMetrics: the nodes the metrics API has no NodeMetrics for
 * (metrics-server cannot scrape a dead kubelet) are listed after the others as
 * `<unknown>` rows; a named node without metrics is the metrics API's NotFound.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';

const SEED = readFileSync(join(__dirname, '../../../scenarios/peekcart.yaml'), 'utf8');

function run(c: Cluster, line: string): string {
  const r = c.kubectl(line);
  return r.output + (r.error !== null ? `<stderr>${r.error}` : '') + `<exit ${r.exitCode}>`;
}

describe('kubectl top node with node-2 powered off', () => {
  const c = new Cluster({ seed: 1 });
  c.apply(SEED);
  c.settle(600_000);
  const before = run(c, 'top nodes');
  c.killNode('node-2');
  c.advance(120_000);
  const cases: [string, string, string][] = [
    [
      'all nodes before: every node has metrics',
      before,
      'NAME            CPU(cores)   CPU(%)   MEMORY(bytes)   MEMORY(%)\ncontrol-plane   0m           0%       0Mi             0%\nnode-1          2m           0%       16Mi            0%\nnode-2          2m           0%       16Mi            0%\nnode-3          1m           0%       8Mi             0%\n<exit 0>',
    ],
    [
      'all nodes after: node-2 last, <unknown>',
      run(c, 'top nodes'),
      'NAME            CPU(cores)   CPU(%)      MEMORY(bytes)   MEMORY(%)\ncontrol-plane   0m           0%          0Mi             0%\nnode-1          2m           0%          16Mi            0%\nnode-3          1m           0%          8Mi             0%\nnode-2          <unknown>    <unknown>   <unknown>       <unknown>\n<exit 0>',
    ],
    [
      'the dead node by name: NotFound from the metrics API',
      run(c, 'top node node-2'),
      '<stderr>Error from server (NotFound): nodemetrics.metrics.k8s.io "node-2" not found\n<exit 1>',
    ],
    [
      'a live node by name: its row only',
      run(c, 'top node node-1'),
      'NAME     CPU(cores)   CPU(%)   MEMORY(bytes)   MEMORY(%)\nnode-1   2m           0%       16Mi            0%\n<exit 0>',
    ],
  ];
  it.each(cases)('%s', (_name, got, want) => {
    expect(got).toBe(want);
  });
});

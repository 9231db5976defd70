/**
 * The dedicated describers (HPA, Job, CronJob, ConfigMap, Secret, StorageClass, DaemonSet,
 * PDB, EndpointSlice, IngressClass, ServiceAccount, Role, ClusterRole, RoleBinding,
 * ClusterRoleBinding, PriorityClass, Endpoints, NetworkPolicy, ResourceQuota, LimitRange,
 * Namespace; Lease stays generic as in kubectl) and the `-f` error texts against REAL kubectl v1.32: src/server/testdata/describe.txt was recorded by
 * src/cli/record-describe-goldens.ts with the objects of testdata/describe/objects.yaml applied
 * in-process to `new Cluster()` and settled 600 s, the clock frozen. Here the same state is
 * rebuilt and the in-app kubectl must print the same text byte for byte after the golden
 * normalisation (src/server/golden.ts: times, uids, random name suffixes); only the Events
 * table's Age cells (real kubectl measures them against the wall clock) are compared cell-wise.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';
import { normalise, parseTranscript } from '../../../server/golden';

const ROOT = join(__dirname, '../../../..');
const OBJECTS = readFileSync(join(__dirname, '../testdata/describe/objects.yaml'), 'utf8');
const GOLDEN = parseTranscript(readFileSync(join(ROOT, 'src/server/testdata/describe.txt'), 'utf8'));

/** Events tables as cells, the Age cell reduced to its "(xN over …)" count. */
function eventsCellwise(text: string): string {
  const out: string[] = [];
  let inEvents = false;
  for (const line of text.split('\n')) {
    if (/^Events:$/.test(line)) inEvents = true;
    else if (!line.trim()) inEvents = false;
    else if (inEvents) {
      const cells = line.trim().split(/\s{2,}/);
      if (!/^(Type|----)$/.test(cells[0])) cells[2] = cells[2].replace(/^\S+/, '<age>').replace(/over [^)]*\)/, 'over <age>)');
      out.push(`  ${cells.join(' | ')}`);
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}

/** The in-app command for a recorded one: files become `-f -` with the file on stdin. */
function inApp(c: Cluster, args: string): string {
  const file = /-f (\S*\/real\/[\w.-]+\.yaml)$/.exec(args);
  // a real manifest, wherever the recording read it from: the repo keeps the files in src/examples/real
  const local = file && join(ROOT, 'src/examples/real', file[1].replace(/^.*\//, ''));
  const r =
    file && local && !args.includes('no-such-file') ? c.kubectl(args.replace(file[1], '-'), readFileSync(local, 'utf8')) : c.kubectl(args);
  let out = `${r.output}${r.error ?? ''}`;
  if (file) out = out.replaceAll('"STDIN"', `"${file[1]}"`);
  return `${eventsCellwise(normalise(out))}${r.exitCode ? `[exit ${r.exitCode}]` : ''}`;
}

describe('kubectl describe and -f errors match real kubectl v1.32 (testdata/describe.txt)', () => {
  const c = new Cluster();
  expect(c.kubectl('apply -f -', OBJECTS).exitCode).toBe(0);
  c.settle(600_000);
  it('covers every recorded command', () => {
    expect(GOLDEN.map((b) => b.args.split(' ').slice(0, 2).join(' '))).toEqual([
      ...[
        'hpa',
        'hpa',
        'job',
        'cronjob',
        'configmap',
        'configmap',
        'secret',
        'secret',
        'storageclass',
        'storageclass',
        'daemonset',
        'pdb',
        'pdb',
        'endpointslice',
        'ingressclass',
        'serviceaccount',
        'lease',
        'role',
        'clusterrole',
        'rolebinding',
        'clusterrolebinding',
        'priorityclass',
        'endpoints',
        'networkpolicy',
        'networkpolicy',
        'networkpolicy',
        'resourcequota',
        'resourcequota',
        'limitrange',
        'namespace',
        'namespace',
      ].map((k) => `describe ${k}`),
      'delete -f',
      'apply -f',
      'create -f',
      'get -f',
      'apply -f',
      'create -f',
    ]);
  });
  it.each(GOLDEN.map((b) => [b.args, b] as const))('kubectl %s', (args, b) => {
    const want = `${eventsCellwise(b.output)}${b.exitCode ? `[exit ${b.exitCode}]` : ''}`;
    expect(inApp(c, args)).toBe(want);
  });
});

/**
 * `npx tsx src/cli/record-describe-goldens.ts` — records src/server/testdata/describe.txt: the
 * REAL kubectl (v1.32 on PATH; nothing else needs it) describing one object of each kind in
 * src/cluster/kubectl/testdata/describe/objects.yaml, plus the file-path and multi-document
 * apply errors. The objects are applied in-process and the cluster settled (600 s simulated)
 * BEFORE the server starts, and the server's clock is frozen (speed 0), so a test can rebuild
 * exactly the same state with `new Cluster()` and compare the in-app kubectl's output with
 * what real kubectl printed (after src/server/golden.ts normalisation: ages, times, uids).
 * src/cluster/kubectl/cmd/describe-kinds.test.ts replays it.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { recordFrozenGoldens } from './record-frozen-goldens';

const ROOT = resolve(import.meta.dirname, '../..');
const OBJECTS = 'src/cluster/kubectl/testdata/describe/objects.yaml';
const port = Number(process.argv[2] ?? 0);

/** The commands recorded (kubectl argv as one line; arguments have no spaces). */
export const DESCRIBE_COMMANDS = [
  'describe hpa web',
  'describe hpa rps',
  'describe job pi',
  'describe cronjob hello',
  'describe configmap settings',
  'describe configmap nginx-conf',
  'describe secret db-pass',
  'describe secret tls-cert',
  'describe storageclass fast',
  'describe storageclass standard',
  'describe daemonset agent',
  'describe pdb web',
  'describe pdb agent',
  'describe endpointslice -l kubernetes.io/service-name=web',
  'describe ingressclass nginx',
  'describe serviceaccount builder',
  'describe lease leader',
  'describe role secret-writer',
  'describe clusterrole node-reader',
  'describe rolebinding write-secrets',
  'describe clusterrolebinding read-nodes',
  'describe priorityclass high',
  'describe endpoints external-db',
  'describe networkpolicy db-access',
  'describe networkpolicy default-deny',
  'describe networkpolicy allow-all-egress',
  'describe resourcequota compute -n quotas',
  'describe resourcequota best-effort -n quotas',
  'describe limitrange defaults',
  'describe namespace default',
  'describe namespace quotas',
  'delete -f no-such-file.yaml',
  'apply -f no-such-file.yaml',
  'create -f no-such-file.yaml',
  'get -f no-such-file.yaml',
  'apply -f src/examples/real/node-exporter-daemonset.yaml',
  'create -f src/examples/real/node-exporter-daemonset.yaml',
];

await recordFrozenGoldens({
  objects: readFileSync(join(ROOT, OBJECTS), 'utf8'),
  commands: DESCRIBE_COMMANDS,
  out: 'src/server/testdata/describe.txt',
  title: `kubectl describe of each kind in ${OBJECTS}, applied in-process and settled 600 s, clock frozen (recorded by src/cli/record-describe-goldens.ts; real kubectl)`,
  port,
});

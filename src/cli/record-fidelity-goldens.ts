/**
 * `npx tsx src/cli/record-fidelity-goldens.ts [PORT]` — records src/server/testdata/fidelity.txt:
 * the REAL kubectl (v1.32 on PATH; nothing else needs it) against the engine for the API
 * fidelity of issues 16, 21 and 22: the v1 Endpoints and ComponentStatus deprecation warnings, discovery
 * (`api-resources -o wide`, `--categories`, a category get), `replace` with resourceVersion
 * "0" (unconditional for a ConfigMap, 422 for a Lease), strategic-merge patch type
 * errors, an apply of several objects (successes first, errors after), `$retainKeys`
 * (emptyDir → hostPath, RollingUpdate → Recreate and back), client-side ↔ server-side apply
 * without a 409, a Node status patch merging conditions by type, and an immortal namespace.
 * Objects of src/cluster/kubectl/testdata/fidelity/objects.yaml are applied in-process and
 * settled 600 s, the clock frozen (src/cli/record-frozen-goldens.ts).
 * src/server/fidelity-goldens.test.ts replays it against the in-app kubectl.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { recordFrozenGoldens } from './record-frozen-goldens';

const ROOT = resolve(import.meta.dirname, '../..');
const DIR = 'src/cluster/kubectl/testdata/fidelity';
const port = Number(process.argv[2] ?? 0);

/** The commands recorded (kubectl argv as one line). */
export const FIDELITY_COMMANDS = [
  'get endpoints kubernetes',
  'get componentstatuses',
  'get cs etcd-0 -o yaml',
  'delete cs scheduler',
  'api-resources -o wide',
  'api-resources --categories=api-extensions',
  'api-resources --api-group=apps -o wide',
  'api-resources --verbs=create --namespaced=false --api-group=rbac.authorization.k8s.io',
  'get api-extensions',
  `replace --dry-run=server -f ${DIR}/settings-replace.yaml`,
  `replace -f ${DIR}/settings-replace.yaml`,
  'get configmap settings -o jsonpath={.data.mode}',
  `replace -f ${DIR}/lock-replace.yaml`,
  `patch configmap settings -p '{"metadata":{"labels":"hello"}}'`,
  `patch configmap settings -p '{"data":{"mode":3}}'`,
  `patch configmap settings -p '{"data":"x"}'`,
  `apply -f ${DIR}/mixed.yaml`,
  `apply -f ${DIR}/web-v1.yaml`,
  `apply -f ${DIR}/web-v2.yaml`,
  'get deployment web -o jsonpath={.spec.strategy}{.spec.template.spec.volumes}',
  `apply -f ${DIR}/web-v1.yaml`,
  'get deployment web -o jsonpath={.spec.strategy}{.spec.template.spec.volumes}',
  `apply -f ${DIR}/pod-v1.yaml`,
  `apply --server-side -f ${DIR}/pod-v2.yaml`,
  'get pod csa -o jsonpath={.metadata.labels}',
  `apply -f ${DIR}/pod-v3.yaml`,
  `apply --server-side -f ${DIR}/pod-v1.yaml`,
  'get pod csa -o jsonpath={.metadata.labels}',
  `patch node node-1 --subresource=status -p '{"status":{"conditions":[{"type":"Ready","status":"False","reason":"Test","message":"by test"}]}}'`,
  'get node node-1 -o jsonpath={.status.conditions[*].type}',
  'delete namespace default',
];

await recordFrozenGoldens({
  objects: readFileSync(join(ROOT, DIR, 'objects.yaml'), 'utf8'),
  commands: FIDELITY_COMMANDS,
  out: 'src/server/testdata/fidelity.txt',
  title: `API fidelity (issues 16, 21, 22) with ${DIR}/objects.yaml applied in-process and settled 600 s, clock frozen (recorded by src/cli/record-fidelity-goldens.ts; real kubectl)`,
  port,
});

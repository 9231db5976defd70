/**
 * `npm run scenario` against malformed scenario files (issue 21): every file is refused
 * before anything runs, exit 1, one line on stderr naming the step or field and the problem;
 * what depends on the cluster's state at run time (a selector that matches no Pod, a Pod
 * that does not exist) is a recorded step error and the scenario still exits 0, as a
 * rejected apply does (docs/scenario-format.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, ftruncateSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mainCode, type CliIO } from './args';
import { SCENARIO_USAGE, scenarioMain } from './scenario';
import { MAX_FILE_BYTES } from '../cluster/scenario/limits';
import { expandRelay, type JsonHop } from '../cluster/relay/folded';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'scenario-cli-'));
  mkdirSync(join(dir, 'folder'));
  mkdirSync(join(dir, 'broken'));
  writeFileSync(join(dir, 'broken', 'kustomization.yaml'), 'resources: [missing.yaml]\n');
  writeFileSync(join(dir, 'app.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\ndata: {a: "1"}\n');
  const fd = openSync(join(dir, 'big.yaml'), 'w');
  ftruncateSync(fd, MAX_FILE_BYTES + 1); // sparse: costs no disk
  closeSync(fd);
  execFileSync('mkfifo', [join(dir, 'fifo.yaml')]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function runAsync(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIO = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) };
  const code = await mainCode(SCENARIO_USAGE, () => scenarioMain(argv, io), io);
  return { code, stdout, stderr };
}

/** Plays `yaml` as `s.yaml` in the temp folder. */
async function play(yaml: string) {
  const file = join(dir, 's.yaml');
  writeFileSync(file, yaml);
  const r = await runAsync([file]);
  return { ...r, stderr: r.stderr.split(file).join('FILE').split(dir).join('DIR') };
}

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const QUANTITY = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const STEPS =
  'apply, applyFile, applyKustomize, kubectl, canI, advance, settle, killNode, restoreNode, removeNode, addNode, deletePod, snapshot, note, dockerRun, request, setLoad, controller, stopController, actAs, setImageMissing, docker, dnsLookup, fireTimers';
const NODES = 'control-plane, node-1, node-2, node-3';
const bomb =
  'a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\nsteps: [*d]\n';
let nested = 'steps:\n';
for (let i = 0; i < 70; i++) nested += `${' '.repeat(2 * i + 2)}k${i}:\n`;

/** [name, scenario file, the stderr line after `error: FILE: `] — each exits 1. */
const INVALID: [string, string, string][] = [
  // the file as a whole
  ['empty file', '', 'scenario: the file must be a YAML mapping with `steps`'],
  ['a list at the top', '- advance: 1s\n', 'scenario: the file must be a YAML mapping with `steps`'],
  ['no steps', 'name: x\n', 'steps: must be a list (got null)'],
  ['steps is text', 'steps: advance\n', 'steps: must be a list (got the string "advance")'],
  ['unknown top-level field', 'stpes: []\n', 'scenario: unknown field "stpes" (expected one of name, title, cluster, steps)'],
  ['name is a list', 'name: [a]\nsteps: []\n', 'name: must be text (got a list)'],
  ['two YAML documents', 'steps: []\n---\nsteps: []\n', 'invalid YAML: a scenario is one YAML document (found another after a `---` line)'],
  ['duplicate key', 'steps:\n  - advance: 1s\n    advance: 2s\n', 'invalid YAML: line 3, column 5: Map keys must be unique'],
  [
    'unclosed flow list',
    'steps: [\n',
    'invalid YAML: line 2, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]',
  ],
  ['tab indentation', 'steps:\n\t- advance: 1s\n', 'invalid YAML: line 2, column 1: Tabs are not allowed as indentation'],
  ['alias bomb', bomb, 'invalid YAML: more than 100 alias expansions (an alias bomb)'],
  ['unknown anchor', 'steps: *nope\n', "invalid YAML: unknown anchor 'nope' referenced"],
  ['flow nesting 100,000 deep', `steps: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`, 'invalid YAML: nested deeper than 64 levels'],
  ['block nesting 70 deep', nested, 'invalid YAML: nested deeper than 64 levels'],
  ['__proto__ as a step', 'steps:\n  - __proto__: {advance: 1s}\n', `steps[0]: unknown step "__proto__" (expected one of ${STEPS})`],
  // cluster
  ['cluster is a list', 'cluster: [1]\nsteps: []\n', 'cluster: must be a mapping (got a list)'],
  [
    'unknown cluster field',
    'cluster: {node: 3}\nsteps: []\n',
    'cluster: unknown field "node" (expected one of seed, nodes, images, controlPlane)',
  ],
  ['controlPlane is a number', 'cluster: {controlPlane: 3}\nsteps: []\n', 'cluster.controlPlane: must be a mapping (got the number 3)'],
  [
    'unknown controlPlane field',
    'cluster: {controlPlane: {replica: 3}}\nsteps: []\n',
    'cluster.controlPlane: unknown field "replica" (expected replicas)',
  ],
  [
    'controlPlane replicas 0',
    'cluster: {controlPlane: {replicas: 0}}\nsteps: []\n',
    'cluster.controlPlane.replicas: must be an integer from 1 to 7 (got 0)',
  ],
  [
    'controlPlane replicas 8',
    'cluster: {controlPlane: {replicas: 8}}\nsteps: []\n',
    'cluster.controlPlane.replicas: must be an integer from 1 to 7 (got 8)',
  ],
  [
    'controlPlane replicas as text',
    'cluster: {controlPlane: {replicas: three}}\nsteps: []\n',
    'cluster.controlPlane.replicas: must be an integer from 1 to 7 (got the string "three")',
  ],
  [
    'controlPlane with a node list',
    'cluster: {nodes: [{name: a, controlPlane: true}], controlPlane: {replicas: 3}}\nsteps: []\n',
    'cluster.controlPlane: applies to a `nodes` count; a list of nodes marks its control-plane nodes with `controlPlane: true`',
  ],
  [
    'killNode control-plane2 without HA',
    'steps:\n  - killNode: control-plane2\n',
    `steps[0] (killNode): node "control-plane2" is not in the scenario (nodes at this step: ${NODES})`,
  ],
  ['seed is text', 'cluster: {seed: one}\nsteps: []\n', 'cluster.seed: must be an integer (got the string "one")'],
  ['seed is a fraction', 'cluster: {seed: 1.5}\nsteps: []\n', 'cluster.seed: must be an integer (got the number 1.5)'],
  [
    'negative node count',
    'cluster: {nodes: -1}\nsteps: []\n',
    'cluster.nodes: must be a count from 0 to 10000 or a list of nodes (got -1)',
  ],
  [
    'node count too large',
    'cluster: {nodes: 10001}\nsteps: []\n',
    'cluster.nodes: must be a count from 0 to 10000 or a list of nodes (got 10001)',
  ],
  ['node count as text', 'cluster: {nodes: "3"}\nsteps: []\n', 'cluster.nodes: must be a count or a list of nodes (got the string "3")'],
  [
    'node entry is text',
    'cluster: {nodes: [node-1]}\nsteps: []\n',
    'cluster.nodes[0]: a node must be a mapping with at least a name, e.g. {name: node-4}',
  ],
  ['node without a name', 'cluster: {nodes: [{capacity: {cpu: "2"}}]}\nsteps: []\n', 'cluster.nodes[0]: name must be a non-empty string'],
  [
    'invalid node name',
    'cluster: {nodes: [{name: Node_1}]}\nsteps: []\n',
    `cluster.nodes[0]: Node "Node_1" is invalid: metadata.name: Invalid value: "Node_1": ${SUBDOMAIN}`,
  ],
  [
    'node name over 253 characters',
    `cluster: {nodes: [{name: ${'a'.repeat(254)}}]}\nsteps: []\n`,
    `cluster.nodes[0]: Node "${'a'.repeat(254)}" is invalid: metadata.name: Invalid value: "${'a'.repeat(254)}": must be no more than 253 characters`,
  ],
  [
    'duplicate node names',
    'cluster: {nodes: [{name: n1}, {name: n2}, {name: n1}]}\nsteps: []\n',
    'cluster.nodes[2]: nodes "n1" already exists (cluster.nodes[0] has that name)',
  ],
  [
    'capacity not a quantity',
    'cluster: {nodes: [{name: n1, capacity: {cpu: lots}}]}\nsteps: []\n',
    `cluster.nodes[0]: capacity.cpu: ${QUANTITY} (got "lots")`,
  ],
  [
    'negative capacity',
    'cluster: {nodes: [{name: n1, capacity: {memory: -1Gi}}]}\nsteps: []\n',
    'cluster.nodes[0]: Node "n1" is invalid: status.capacity.memory: Invalid value: "-1Gi": must be greater than or equal to 0',
  ],
  [
    'fractional pods capacity',
    'cluster: {nodes: [{name: n1, capacity: {pods: "1.5"}}]}\nsteps: []\n',
    'cluster.nodes[0]: Node "n1" is invalid: status.capacity.pods: Invalid value: "1.5": must be an integer',
  ],
  ['capacity is a list', 'cluster: {nodes: [{name: n1, capacity: [cpu]}]}\nsteps: []\n', 'cluster.nodes[0]: capacity must be a mapping'],
  [
    'capacity value is a mapping',
    'cluster: {nodes: [{name: n1, capacity: {cpu: {n: 2}}}]}\nsteps: []\n',
    'cluster.nodes[0]: capacity.cpu must be a string (got a mapping)',
  ],
  [
    'invalid label key',
    'cluster: {nodes: [{name: n1, labels: {"bad key": x}}]}\nsteps: []\n',
    `cluster.nodes[0]: Node "n1" is invalid: metadata.labels: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
  ],
  ['taints not a list', 'cluster: {nodes: [{name: n1, taints: {key: a}}]}\nsteps: []\n', 'cluster.nodes[0]: taints must be a list'],
  [
    'taint effect unknown',
    'cluster: {nodes: [{name: n1, taints: [{key: a, effect: Never}]}]}\nsteps: []\n',
    'cluster.nodes[0]: Node "n1" is invalid: spec.taints[0].effect: Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
  ],
  [
    'taint without effect',
    'cluster: {nodes: [{name: n1, taints: [{key: a}]}]}\nsteps: []\n',
    'cluster.nodes[0]: Node "n1" is invalid: spec.taints[0].effect: Required value',
  ],
  [
    'taint unknown field',
    'cluster: {nodes: [{name: n1, taints: [{key: a, effect: NoSchedule, operator: Exists}]}]}\nsteps: []\n',
    'cluster.nodes[0].taints[0]: unknown field "operator" (expected one of key, value, effect)',
  ],
  [
    'controlPlane is text',
    'cluster: {nodes: [{name: n1, controlPlane: "yes"}]}\nsteps: []\n',
    'cluster.nodes[0]: controlPlane must be true or false',
  ],
  [
    'unknown node field',
    'cluster: {nodes: [{name: n1, cpu: 2}]}\nsteps: []\n',
    'cluster.nodes[0]: unknown field "cpu" (expected one of name, labels, taints, capacity, controlPlane)',
  ],
  ['images is a list', 'cluster: {images: [nginx]}\nsteps: []\n', 'cluster.images: must be a mapping (got a list)'],
  [
    'images.missing is text',
    'cluster: {images: {missing: nginx}}\nsteps: []\n',
    'cluster.images.missing: must be a list of image references',
  ],
  [
    'unknown images field',
    'cluster: {images: {broken: [nginx]}}\nsteps: []\n',
    'cluster.images: unknown field "broken" (expected missing)',
  ],
  // the shape of a step
  [
    'step is text',
    'steps:\n  - advance\n',
    'steps[0]: each step must be a mapping with one key, e.g. `- advance: 90s` (got the string "advance")',
  ],
  [
    'two keys in one step',
    'steps:\n  - {advance: 1s, settle: 2s}\n',
    `steps[0]: a step has exactly one key (one of ${STEPS}); got advance, settle`,
  ],
  ['a step with no key', 'steps:\n  - {}\n', `steps[0]: a step has exactly one key (one of ${STEPS}); got none`],
  ['unknown step', 'steps:\n  - wait: 5s\n', `steps[0]: unknown step "wait" (expected one of ${STEPS})`],
  // each step's fields
  ['apply a number', 'steps:\n  - apply: 3\n', 'steps[0] (apply): the manifest must be a non-empty string (got the number 3)'],
  ['apply empty', 'steps:\n  - apply: ""\n', 'steps[0] (apply): the manifest must be a non-empty string (got the string "")'],
  [
    'applyFile a mapping',
    'steps:\n  - applyFile: {path: app.yaml}\n',
    'steps[0] (applyFile): the path must be a non-empty string (got a mapping)',
  ],
  ['applyFile missing', 'steps:\n  - applyFile: missing.yaml\n', 'steps[0] (applyFile): the path "missing.yaml" does not exist'],
  [
    'applyFile a folder',
    'steps:\n  - applyFile: folder\n',
    'steps[0] (applyFile): "folder" is a folder, not a file (use applyKustomize for a kustomization)',
  ],
  ['applyFile /dev/zero', 'steps:\n  - applyFile: /dev/zero\n', 'steps[0] (applyFile): "/dev/zero" is not a regular file'],
  ['applyFile a FIFO', 'steps:\n  - applyFile: fifo.yaml\n', 'steps[0] (applyFile): "fifo.yaml" is not a regular file'],
  [
    'applyFile over 3 MiB',
    'steps:\n  - applyFile: big.yaml\n',
    `steps[0] (applyFile): "big.yaml" is ${MAX_FILE_BYTES + 1} bytes; the limit is 3 MiB (3145728 bytes)`,
  ],
  [
    'applyKustomize missing',
    'steps:\n  - applyKustomize: overlays/none\n',
    'steps[0] (applyKustomize): the path "overlays/none" does not exist',
  ],
  [
    'applyKustomize a file',
    'steps:\n  - applyKustomize: app.yaml\n',
    'steps[0] (applyKustomize): "app.yaml" is not a folder (applyKustomize takes a kustomization folder, as kubectl apply -k)',
  ],
  [
    'applyKustomize a folder without a kustomization',
    'steps:\n  - applyKustomize: folder\n',
    "steps[0] (applyKustomize): unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory 'DIR/folder'",
  ],
  [
    'applyKustomize of a missing resource',
    'steps:\n  - applyKustomize: broken\n',
    "steps[0] (applyKustomize): accumulating resources: accumulation err='accumulating resources from 'missing.yaml': evalsymlink failure on 'DIR/broken/missing.yaml' : lstat DIR/broken/missing.yaml: no such file or directory': must build at directory: not a valid directory: evalsymlink failure on 'DIR/broken/missing.yaml' : lstat DIR/broken/missing.yaml: no such file or directory",
  ],
  ['kubectl a list', 'steps:\n  - kubectl: [get, pods]\n', 'steps[0] (kubectl): the command must be a non-empty string (got a list)'],
  ['advance in days', 'steps:\n  - advance: 1d\n', 'steps[0] (advance): time: unknown unit "d" in duration "1d"'],
  ['advance without a unit', 'steps:\n  - advance: 90\n', 'steps[0] (advance): time: missing unit in duration "90"'],
  ['advance negative', 'steps:\n  - advance: -5s\n', 'steps[0] (advance): must not be negative (got "-5s")'],
  ['advance empty', 'steps:\n  - advance: ""\n', 'steps[0] (advance): time: invalid duration ""'],
  ['advance with a space', 'steps:\n  - advance: 5 s\n', 'steps[0] (advance): time: unknown unit " s" in duration "5 s"'],
  [
    'advance a list',
    'steps:\n  - advance: [1s]\n',
    'steps[0] (advance): must be a duration string such as 500ms, 90s, 6m or 1h (got a list)',
  ],
  ['advance past int64 nanoseconds', 'steps:\n  - advance: 100000000h\n', 'steps[0] (advance): time: invalid duration "100000000h"'],
  [
    'advance past the simulated-time limit',
    'steps:\n  - advance: 2000000h\n',
    "steps[0] (advance): the scenario's simulated time would reach 2000000h0m0s; the limit is 24h0m0s (advance and settle limits added up)",
  ],
  [
    'advance and settle add up past the limit',
    'steps:\n  - advance: 20h\n  - settle: 4h\n  - advance: 1ms\n',
    "steps[2] (advance): the scenario's simulated time would reach 24h0m0.001s; the limit is 24h0m0s (advance and settle limits added up)",
  ],
  [
    'more node-hours than the limit',
    'cluster: {nodes: 200}\nsteps:\n  - advance: 10h\n  - addNode: {name: extra}\n  - settle: 2h\n',
    'steps[2] (settle): the scenario would simulate 2414 node-hours (202 nodes for 2h0m0s here); the limit is 2400 node-hours',
  ],
  [
    'settle with a misspelt field',
    'steps:\n  - settle: {for: 5m, quite: 30s}\n',
    'steps[0] (settle): unknown field "quite" (expected one of for, quiet)',
  ],
  ['settle without for', 'steps:\n  - settle: {quiet: 30s}\n', 'steps[0] (settle): for is required, e.g. {for: 10m, quiet: 30s}'],
  [
    'settle quiet not a duration',
    'steps:\n  - settle: {for: 5m, quiet: soon}\n',
    'steps[0] (settle): quiet: time: invalid duration "soon"',
  ],
  ['settle true', 'steps:\n  - settle: true\n', 'steps[0] (settle): must be a duration string such as 500ms, 90s, 6m or 1h (got boolean)'],
  [
    'killNode of a node not in the scenario',
    'steps:\n  - killNode: node-9\n',
    `steps[0] (killNode): node "node-9" is not in the scenario (nodes at this step: ${NODES})`,
  ],
  [
    'killNode nodeOfPod as text',
    'steps:\n  - killNode: {nodeOfPod: app=web}\n',
    'steps[0] (killNode): expected {selector, index?, namespace?}',
  ],
  [
    'killNode negative index',
    'steps:\n  - killNode: {nodeOfPod: {selector: app=web, index: -1}}\n',
    'steps[0] (killNode): index must be a non-negative integer',
  ],
  [
    'killNode by another field',
    'steps:\n  - killNode: {node: node-1}\n',
    'steps[0] (killNode): expected a node name or {nodeOfPod: {selector, index}}',
  ],
  ['killNode a number', 'steps:\n  - killNode: 3\n', 'steps[0] (killNode): the node name must be a non-empty string (got the number 3)'],
  [
    'restoreNode of a node not in the scenario',
    'steps:\n  - restoreNode: node-4\n',
    `steps[0] (restoreNode): node "node-4" is not in the scenario (nodes at this step: ${NODES})`,
  ],
  [
    'killNode after removeNode',
    'steps:\n  - removeNode: node-3\n  - killNode: node-3\n',
    'steps[1] (killNode): node "node-3" is not in the scenario (nodes at this step: control-plane, node-1, node-2)',
  ],
  [
    'addNode with an invalid name',
    'steps:\n  - addNode: {name: Node_1}\n',
    `steps[0] (addNode): Node "Node_1" is invalid: metadata.name: Invalid value: "Node_1": ${SUBDOMAIN}`,
  ],
  ['addNode of an existing name', 'steps:\n  - addNode: {name: node-1}\n', 'steps[0] (addNode): nodes "node-1" already exists'],
  [
    'addNode as text',
    'steps:\n  - addNode: node-4\n',
    'steps[0] (addNode): a node must be a mapping with at least a name, e.g. {name: node-4}',
  ],
  [
    'addNode capacity not a quantity',
    'steps:\n  - addNode: {name: node-4, capacity: {memory: 8 gigs}}\n',
    `steps[0] (addNode): capacity.memory: ${QUANTITY} (got "8 gigs")`,
  ],
  [
    'deletePod with three parts',
    'steps:\n  - deletePod: a/b/c\n',
    'steps[0] (deletePod): the Pod must be NAMESPACE/NAME or NAME (got "a/b/c")',
  ],
  [
    'deletePod name and selector',
    'steps:\n  - deletePod: {name: db, selector: app=db}\n',
    'steps[0] (deletePod): unknown field "selector" (expected one of namespace, name, via)',
  ],
  [
    'deletePod bad selector',
    'steps:\n  - deletePod: {selector: "app in (x"}\n',
    "steps[0] (deletePod): selector: unable to parse requirement: found '', expected: ',' or ')'",
  ],
  [
    'deletePod invalid namespace',
    'steps:\n  - deletePod: {namespace: Bad_NS, name: db}\n',
    `steps[0] (deletePod): namespace: Invalid value: "Bad_NS": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
  ],
  ['deletePod a number', 'steps:\n  - deletePod: 5\n', 'steps[0] (deletePod): the Pod must be a non-empty string (got the number 5)'],
  [
    'snapshot a mapping',
    'steps:\n  - snapshot: {name: x}\n',
    'steps[0] (snapshot): the snapshot name must be a non-empty string (got a mapping)',
  ],
  ['note a number', 'steps:\n  - note: 5\n', 'steps[0] (note): a note is text or {en, ko}'],
  [
    'note keyed by words',
    'steps:\n  - note: {english: hi}\n',
    'steps[0] (note): a note\'s keys are language codes such as en or ko (got "english")',
  ],
  ['note text a list', 'steps:\n  - note: {en: [a]}\n', 'steps[0] (note): en must be a non-empty string (got a list)'],
  [
    'dockerRun on a node not in the scenario',
    'steps:\n  - dockerRun: {node: node-9, image: nginx}\n',
    `steps[0] (dockerRun): node "node-9" is not in the scenario (nodes at this step: ${NODES})`,
  ],
  [
    'dockerRun bad restart',
    'steps:\n  - dockerRun: {node: node-1, image: nginx, restart: sometimes}\n',
    'steps[0] (dockerRun): restart must be one of no, always, unless-stopped, on-failure',
  ],
  [
    'dockerRun unknown field',
    'steps:\n  - dockerRun: {node: node-1, image: nginx, ports: [80]}\n',
    'steps[0] (dockerRun): unknown field "ports" (expected one of node, image, name, restart)',
  ],
  [
    'request count too large',
    'steps:\n  - request: {url: web, count: 1000}\n',
    'steps[0] (request): count must be an integer from 1 to 100',
  ],
  [
    'request from a bad Pod',
    'steps:\n  - request: {url: web, from: {pod: a/b/c}}\n',
    'steps[0] (request): from.pod must be NAMESPACE/NAME or NAME (got "a/b/c")',
  ],
  [
    'request unknown field',
    'steps:\n  - request: {url: web, method: POST}\n',
    'steps[0] (request): unknown field "method" (expected one of from, url, count)',
  ],
  [
    '101 snapshot steps',
    `steps:\n${'  - snapshot: s\n'.repeat(101)}`,
    'steps[100] (snapshot): at most 100 snapshot steps (each holds a copy of every object)',
  ],
  [
    'request steps over 10,000 requests',
    `steps:\n${'  - request: {url: web, count: 100}\n'.repeat(101)}`,
    'steps[100] (request): the request steps would send more than 10000 requests in all',
  ],
  [
    'addNode past 10,001 nodes',
    `cluster: {nodes: 10000}\nsteps:\n  - addNode: {name: extra-1}\n`,
    'steps[0] (addNode): the scenario would have more than 10001 nodes',
  ],
  [
    'a label key __proto__',
    'cluster: {nodes: [{name: n1, labels: {__proto__: x}}]}\nsteps: []\n',
    `cluster.nodes[0]: Node "n1" is invalid: metadata.labels: Invalid value: "__proto__": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
  ],
  [
    'setLoad negative cpu',
    'steps:\n  - setLoad: {workload: deployment/web, cpu: -1}\n',
    'steps[0] (setLoad): cpu must be a non-negative quantity such as 900m or 2',
  ],
  [
    'setLoad cpu not a quantity',
    'steps:\n  - setLoad: {workload: deployment/web, cpu: lots}\n',
    'steps[0] (setLoad): cpu must be a quantity such as 900m or 2 (got "lots")',
  ],
];

describe('npm run scenario refuses malformed scenario files before running anything', () => {
  it('the corpus has more than 64 files', () => expect(INVALID.length).toBeGreaterThan(64));

  it.each(INVALID)('%s', async (_name, yaml, want) => {
    const r = await play(yaml);
    expect(r).toEqual({ code: 1, stdout: '', stderr: `error: FILE: ${want}\n` });
  });
});

describe('the scenario file itself', () => {
  it.each([
    ['missing', 'none.yaml', 'error: the path "DIR/none.yaml" does not exist'],
    ['a folder', 'folder', 'error: "DIR/folder" is a folder, not a file'],
    ['a FIFO (does not block)', 'fifo.yaml', 'error: "DIR/fifo.yaml" is not a regular file'],
    ['over 3 MiB', 'big.yaml', `error: "DIR/big.yaml" is ${MAX_FILE_BYTES + 1} bytes; the limit is 3 MiB (3145728 bytes)`],
  ])('%s', async (_name, file, want) => {
    const r = await runAsync([join(dir, file)]);
    expect({ code: r.code, stderr: r.stderr.split(dir).join('DIR') }).toEqual({ code: 1, stderr: `${want}\n` });
  });

  it('/dev/zero', async () => {
    expect(await runAsync(['/dev/zero'])).toEqual({ code: 1, stdout: '', stderr: 'error: "/dev/zero" is not a regular file\n' });
  });
});

describe('what depends on the cluster at run time is a recorded step error (exit 0)', () => {
  it.each([
    [
      'deletePod by a selector matching nothing',
      'steps:\n  - deletePod: {selector: app=none}\n',
      'no Pod #0 matches app=none in namespace default (found 0)',
    ],
    [
      'deletePod of a Pod that does not exist',
      'steps:\n  - deletePod: default/ghost\n',
      'Error from server (NotFound): pods "ghost" not found\n',
    ],
    [
      'killNode of the node of a Pod that does not exist',
      'steps:\n  - killNode: {nodeOfPod: {selector: app=none, index: 2}}\n',
      'no Pod #2 matches app=none in namespace default (found 0)',
    ],
  ])('%s', async (_name, yaml, error) => {
    const r = await play(yaml);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const out = JSON.parse(r.stdout);
    expect(out.steps.map((s: { error?: string }) => s.error)).toEqual([error]);
  });

  it('an added node can be killed, restored and removed (the static node check follows addNode)', async () => {
    const r = await play(
      'steps:\n  - addNode: {name: node-4, capacity: {cpu: "4", memory: 8Gi}}\n  - killNode: node-4\n  - restoreNode: node-4\n  - removeNode: node-4\n',
    );
    expect([r.code, r.stderr]).toEqual([0, '']);
    const out = JSON.parse(r.stdout);
    expect(out.steps.map((s: { step: string; error?: string }) => `${s.step}:${s.error ?? 'ok'}`)).toEqual([
      'addNode:ok',
      'killNode:ok',
      'restoreNode:ok',
      'removeNode:ok',
    ]);
  });

  it('applyFile reads the file relative to the scenario', async () => {
    const r = await play('steps:\n  - applyFile: app.yaml\n');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout).steps[0].results).toMatchObject([{ object: 'configmap/app', action: 'created' }]);
  });
});

describe('npm run scenario flags', () => {
  it.each([
    ['no scenario file', [], 'error: a scenario file is required'],
    ['two scenario files', ['a.yaml', 'b.yaml'], 'error: one scenario file at a time (got 2: a.yaml b.yaml)'],
    ['unknown flag', ['s.yaml', '--output', 'r.json'], 'error: unknown flag: --output'],
    ['unknown shorthand flag', ['s.yaml', '-o', 'r.json'], "error: unknown shorthand flag: 'o' in -o"],
    ['--out without a value', ['s.yaml', '--out'], 'error: flag needs an argument: --out'],
    ['--out followed by a flag', ['s.yaml', '--out', '--mermaid', 'm.mmd'], 'error: flag needs an argument: --out'],
    ['--out empty', ['s.yaml', '--out='], 'error: invalid argument "" for "--out" flag: must be a file path'],
    [
      '--out in a missing folder',
      ['s.yaml', '--out', 'DIR/no/such/r.json'],
      'error: invalid argument "DIR/no/such/r.json" for "--out" flag: folder "DIR/no/such" does not exist',
    ],
    [
      '--out under a file',
      ['s.yaml', '--out', 'DIR/app.yaml/r.json'],
      'error: invalid argument "DIR/app.yaml/r.json" for "--out" flag: "DIR/app.yaml" is not a folder',
    ],
    ['--out a folder', ['s.yaml', '--out', 'DIR/folder'], 'error: invalid argument "DIR/folder" for "--out" flag: is a folder, not a file'],
    [
      '--mermaid in a missing folder',
      ['s.yaml', '--mermaid=DIR/no/m.mmd'],
      'error: invalid argument "DIR/no/m.mmd" for "--mermaid" flag: folder "DIR/no" does not exist',
    ],
    [
      '--relay neither full nor folded',
      ['s.yaml', '--relay', 'compact'],
      'error: invalid argument "compact" for "--relay" flag: must be "full" or "folded"',
    ],
    [
      'a bool flag given a value',
      ['s.yaml', '--help=maybe'],
      'error: invalid argument "maybe" for "--help" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    ],
  ])('%s', async (_name, argv, want) => {
    const r = await runAsync(argv.map((a) => a.replace('DIR', dir)));
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr.split(dir).join('DIR') }).toEqual({
      code: 1,
      stdout: '',
      stderr: `${want}\n${SCENARIO_USAGE}\n`,
    });
  });

  it('--help prints the usage and exits 0', async () => {
    expect(await runAsync(['--help'])).toEqual({ code: 0, stdout: `${SCENARIO_USAGE}\n`, stderr: '' });
  });

  it('--out and --mermaid write the result and the diagram', async () => {
    writeFileSync(join(dir, 'ok.yaml'), 'steps:\n  - apply: |\n      apiVersion: v1\n      kind: ConfigMap\n      metadata: {name: c}\n');
    const r = await runAsync([join(dir, 'ok.yaml'), '--out', join(dir, 'r.json'), '--mermaid', join(dir, 'r.mmd')]);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).steps[0].results).toMatchObject([
      { object: 'configmap/c', action: 'created' },
    ]);
    expect(readFileSync(join(dir, 'r.mmd'), 'utf8')).toMatch(/^sequenceDiagram\n/);
  });

  it('--relay folded writes the folded relay, which expands to the default one; the rest is the same', async () => {
    writeFileSync(join(dir, 'ok.yaml'), 'steps:\n  - apply: |\n      apiVersion: v1\n      kind: ConfigMap\n      metadata: {name: c}\n');
    const full = await runAsync([join(dir, 'ok.yaml'), '--relay=full']);
    const folded = await runAsync([join(dir, 'ok.yaml'), '--relay', 'folded']);
    expect([full.code, folded.code, full.stderr, folded.stderr]).toEqual([0, 0, '', '']);
    expect(full.stdout).toBe((await runAsync([join(dir, 'ok.yaml')])).stdout);
    const { relay, ...rest } = JSON.parse(full.stdout) as { relay: JsonHop[] };
    const f = JSON.parse(folded.stdout) as { relayForm: string; relay: JsonHop[] };
    expect(Object.keys(f)).toEqual([...Object.keys(rest), 'relayForm', 'relay']);
    expect(f).toEqual({ ...rest, relayForm: 'folded', relay: f.relay });
    expect(f.relay.length).toBeLessThan(relay.length);
    expect(JSON.stringify(expandRelay(f.relay))).toBe(JSON.stringify(relay));
  });
});

/**
 * `npx tsx src/cli/record-security-goldens.ts` — drives the REAL kubectl against the engine
 * served in-process (src/server) through the hostile cases of issues 14 and 21 that kubectl can
 * send: path segment names (`..`, `%2e%2e`, `.`), raw bodies of the wrong kind, invalid query
 * parameters, a wrong bearer token, impersonation without a user. Writes
 * src/server/testdata/security.txt; src/server/security-goldens.test.ts replays it without kubectl.
 * kubectl cannot send a text/plain or form body, so the 415 cases live in security.test.ts.
 */
import { join, resolve } from 'node:path';
import { recordTranscript } from './record-transcript';

const ROOT = resolve(import.meta.dirname, '../..');
const FILES = join(ROOT, 'src/server/testdata/security');

/** The kubectl command lines, in order (run in src/server/testdata/security). */
export const SECURITY_STEPS = [
  'create namespace victim',
  'create configmap keep -n victim --from-literal=a=b',
  'delete pod .. -n victim',
  'delete --raw /api/v1/namespaces/victim/configmaps/..',
  'delete --raw /api/v1/namespaces/victim/configmaps/%2e%2e',
  'delete --raw /api/v1/namespaces/%2e%2e',
  'get --raw /api/v1/nodes/.',
  'get namespace victim -o name',
  'get configmap keep -n victim -o name',
  'create --raw /api/v1/namespaces -f pod.yaml',
  'create --raw /api/v1/namespaces/victim/configmaps -f secret.json',
  'get --raw /api/v1/pods?resourceVersion=abc',
  'get --raw /api/v1/pods?resourceVersion=-1',
  'get --raw /api/v1/pods?limit=abc',
  'get --raw /api/v1/pods?resourceVersionMatch=Bogus&resourceVersion=1',
  'get --raw /api/v1/pods?continue=abc!',
  'get --raw /api/v1/pods?watch=1&timeoutSeconds=1e10',
  'get pods --token=garbage',
  'get --raw /readyz',
  'get --raw /readyz --token=garbage',
  'get configmaps -n victim -o name --as=jane',
  'get configmaps -n victim --as-group=devs',
];

await recordTranscript({
  steps: SECURITY_STEPS,
  cwd: FILES,
  out: join(ROOT, 'src/server/testdata/security.txt'),
  title:
    'Hostile requests with real kubectl: path names, raw bodies of the wrong kind, bad query parameters, a wrong token, impersonation (recorded by src/cli/record-security-goldens.ts)',
});

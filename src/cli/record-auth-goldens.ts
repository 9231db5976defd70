/**
 * `npx tsx src/cli/record-auth-goldens.ts` — drives the REAL kubectl against the engine served
 * in-process (src/server) through RBAC as issue 18 asks: `auth whoami` (admin, `--as`,
 * `--as-group`), `auth can-i` (a verb, `--list`, a node identity, `'*' '*'`), a 403, a Role and
 * RoleBinding for jane, then jane's access. kubectl sends the reviews as protobuf
 * (src/server/protobuf.ts). Writes src/server/testdata/auth.txt; src/server/auth-goldens.test.ts
 * replays it without kubectl. `get lease -n kube-system` during a failover is in leader-election.txt.
 */
import { join, resolve } from 'node:path';
import { AUTH_STEPS } from './auth-golden-steps';
import { recordTranscript } from './record-transcript';

const ROOT = resolve(import.meta.dirname, '../..');

/** Splits a line as a shell would for these lines: words, single quotes kept together. */
const argv = (line: string) => (line.match(/'[^']*'|\S+/g) ?? []).map((a) => a.replace(/^'(.*)'$/, '$1'));

await recordTranscript({
  steps: AUTH_STEPS,
  argv,
  out: join(ROOT, 'src/server/testdata/auth.txt'),
  title:
    'RBAC with real kubectl: auth whoami, auth can-i (--as, --list, a node, everything), a 403, a Role and RoleBinding for jane (recorded by src/cli/record-auth-goldens.ts)',
});

/**
 * Replays src/server/testdata/auth.txt (real kubectl against the server, recorded by
 * src/cli/record-auth-goldens.ts: auth whoami, auth can-i, a 403, a Role and RoleBinding for
 * jane) through the in-app kubectl on a fresh cluster, line by line in order: every block prints
 * what real kubectl printed, after the golden normalisation (src/server/golden.ts), with the same
 * exit code. kubectl writes its warnings to stderr before the answer, so they come first. The
 * in-app kubectl has no `create role` / `create rolebinding`: those lines apply the objects
 * real kubectl sent (its create.go / create_rolebinding.go output) and print what it printed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { normalise, parseTranscript } from './golden';
import { AUTH_STEPS } from '../cli/auth-golden-steps';

/** The objects `kubectl create role|rolebinding` sends for the lines of the transcript. */
const CREATED: ReadonlyMap<string, string> = new Map([
  [
    'create role pod-reader --verb=get,list,watch --resource=pods',
    `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: pod-reader, namespace: default}
rules:
- apiGroups: [""]
  resources: [pods]
  verbs: [get, list, watch]
`,
  ],
  [
    'create rolebinding jane-pod-reader --role=pod-reader --user=jane',
    `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: jane-pod-reader, namespace: default}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: pod-reader}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: jane}
`,
  ],
]);

const GOLDEN = parseTranscript(readFileSync(join(__dirname, 'testdata/auth.txt'), 'utf8'));

describe('auth transcript (testdata/auth.txt) replayed by the in-app kubectl', () => {
  it('records one block per scripted line', () => {
    expect(GOLDEN.map((b) => b.args)).toEqual(AUTH_STEPS);
  });
  const c = new Cluster();
  AUTH_STEPS.forEach((line, i) => {
    it(`kubectl ${line}`, () => {
      const created = CREATED.get(line);
      if (created) {
        const [res] = c.apply(created);
        expect(`${res.object} ${res.action}`).toBe(GOLDEN[i].output.trimEnd());
        return;
      }
      const r = c.kubectl(line);
      const warnings = r.error?.startsWith('Warning:') ? r.error : '';
      const out = warnings ? `${warnings}${r.output}` : `${r.output}${r.error ?? ''}`;
      expect({ out: normalise(out).replace(/\n+$/, ''), exit: r.exitCode }).toEqual({
        out: GOLDEN[i].output.replace(/\n+$/, ''),
        exit: GOLDEN[i].exitCode,
      });
    });
  });
});

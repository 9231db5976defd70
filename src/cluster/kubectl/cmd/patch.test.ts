/**
 * `kubectl patch` against REAL kubectl v1.32: src/server/testdata/patch.txt was recorded by
 * src/cli/record-patch-goldens.ts with patch.fixture.ts's objects applied in-process to
 * `new Cluster()` and settled 600 s, the clock frozen, then every line run in order. Here the
 * same state is rebuilt and the same lines, in the same order, must print the same text (stdout
 * then stderr, after src/server/golden.ts normalisation) with the same exit code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';
import { normalise, parseTranscript } from '../../../server/golden';
import { PATCH_COMMANDS, PATCH_OBJECTS } from './patch.fixture';

const ROOT = join(__dirname, '../../../..');
const GOLDEN = parseTranscript(readFileSync(join(ROOT, 'src/server/testdata/patch.txt'), 'utf8'));

/** What the in-app kubectl prints for a line, as the recorder stores it (stdout then stderr, normalised). */
function inApp(c: Cluster, args: string): { output: string; exitCode: number } {
  const r = c.kubectl(args);
  const text = normalise(`${r.output}${r.error ?? ''}`).replace(/\n+$/, '');
  return { output: text ? `${text}\n` : '', exitCode: r.exitCode };
}

describe('kubectl patch matches real kubectl v1.32 (testdata/patch.txt)', () => {
  const c = new Cluster();
  expect(c.kubectl('apply -f -', PATCH_OBJECTS).exitCode).toBe(0);
  c.settle(600_000);
  it('replays every command of the fixture, in order', () => {
    expect(GOLDEN.map((b) => b.args)).toEqual(PATCH_COMMANDS);
  });
  it.each(GOLDEN.map((b, i) => [`#${i + 1} ${b.args}`, b] as const))('kubectl %s', (_name, b) => {
    expect(inApp(c, b.args)).toEqual({ output: b.output, exitCode: b.exitCode });
  });
});

describe('kubectl patch in the bar beyond the transcript', () => {
  const fresh = (): Cluster => {
    const c = new Cluster();
    expect(c.kubectl('apply -f -', PATCH_OBJECTS).exitCode).toBe(0);
    c.settle(600_000);
    return c;
  };
  const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: dev\n';
  it.each([
    {
      name: '-f - patches the object the file names',
      line: `patch -f - --type=merge -p '{"data":{"mode":"qa"}}'`,
      stdin: CM,
      out: 'configmap/settings patched\n',
      err: null,
      mode: 'qa',
    },
    {
      name: '--local -f - prints the patched file and writes nothing',
      line: `patch --local -f - --type=merge -p '{"data":{"mode":"qa"}}' -o yaml`,
      stdin: CM,
      out: 'apiVersion: v1\ndata:\n  mode: qa\nkind: ConfigMap\nmetadata:\n  name: settings\n',
      err: null,
      mode: 'dev',
    },
    {
      name: '--local without -f',
      line: `patch --local -p '{}'`,
      stdin: undefined,
      out: '',
      err: 'error: must specify -f and --local\n',
      mode: 'dev',
    },
    {
      name: '--patch-file: the bar has no file system',
      line: `patch configmap settings --patch-file=p.yaml`,
      stdin: undefined,
      out: '',
      err: 'error: unable to read patch file: open p.yaml: no such file or directory\n',
      mode: 'dev',
    },
    {
      name: 'a YAML patch (not starting with "{") is converted to JSON',
      line: `patch configmap settings -p 'data: {mode: yaml}'`,
      stdin: undefined,
      out: 'configmap/settings patched\n',
      err: null,
      mode: 'yaml',
    },
  ])('$name', ({ line, stdin, out, err, mode }) => {
    const c = fresh();
    const r = c.kubectl(line, stdin);
    expect({ output: r.output, error: r.error }).toEqual({ output: out, error: err });
    expect(c.kubectl('get configmap settings -o jsonpath={.data.mode}').output).toBe(mode);
  });

  it('records kubectl-patch as the field manager of the patched fields', () => {
    const c = fresh();
    c.kubectl(`patch deployment web -p '{"spec":{"replicas":2}}'`);
    const dep = JSON.parse(c.kubectl('get deployment web -o json --show-managed-fields').output);
    const entry = dep.metadata.managedFields.find((m: { manager: string }) => m.manager === 'kubectl-patch');
    expect(entry).toMatchObject({ operation: 'Update', apiVersion: 'apps/v1' });
    expect(entry.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('powering a Machine off (README) takes its Node NotReady after the 50 s grace period', () => {
    const c = fresh();
    expect(c.kubectl(`patch machine node-2 --type=merge -p '{"spec":{"power":"Off"}}'`).output).toBe(
      'machine.sim.kube-relay.dev/node-2 patched\n',
    );
    c.settle(45_000);
    expect(c.kubectl('get node node-2 --no-headers').output).toMatch(/^node-2\s+Ready\s/);
    c.settle(30_000);
    expect(c.kubectl('get node node-2 --no-headers').output).toMatch(/^node-2\s+NotReady\s/);
  });

  it('--dry-run=server changes nothing', () => {
    const c = fresh();
    expect(c.kubectl(`patch deployment web -p '{"spec":{"replicas":5}}' --dry-run=server`).output).toBe('deployment.apps/web patched\n');
    expect(c.kubectl('get deployment web -o jsonpath={.spec.replicas}').output).toBe('1');
  });
});

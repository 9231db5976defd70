/**
 * Replays src/server/testdata/fidelity.txt (real kubectl v1.32 against the engine, recorded by
 * src/cli/record-fidelity-goldens.ts) through the in-app kubectl on the same state — the
 * objects of src/cluster/kubectl/testdata/fidelity/objects.yaml applied and settled 600 s —
 * and every command must print what real kubectl printed, byte for byte after the golden
 * normalisation (src/server/golden.ts). `kubectl replace`, which the in-app kubectl does not
 * have, is replayed as the PUT real kubectl sent, printed as kubectl prints its answer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Cluster } from '../cluster/cluster';
import { users } from '../cluster/client/clientset';
import { StatusError, kubectlErrorMessage } from '../cluster/api/errors';
import { normalise, parseTranscript } from './golden';

const ROOT = join(__dirname, '../..');
const GOLDEN = parseTranscript(readFileSync(join(ROOT, 'src/server/testdata/fidelity.txt'), 'utf8'));
const OBJECTS = readFileSync(join(ROOT, 'src/cluster/kubectl/testdata/fidelity/objects.yaml'), 'utf8');

/** `kubectl replace [--dry-run=server] -f FILE` as the PUT it sends, printed as kubectl would. */
function replace(c: Cluster, args: string): { text: string; exitCode: number } {
  const file = /-f (\S+)$/.exec(args)![1];
  const obj = parse(readFileSync(join(ROOT, file), 'utf8'));
  const info = c.api.registry.forKind(obj.apiVersion, obj.kind)!;
  const dryRun = args.includes('--dry-run=server');
  try {
    c.api.update(users.kubectl(), info, info.namespaced ? 'default' : '', obj, { dryRun });
    return {
      text: `${info.kind.toLowerCase()}${info.group ? `.${info.group}` : ''}/${obj.metadata.name} replaced${dryRun ? ' (server dry run)' : ''}\n`,
      exitCode: 0,
    };
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    return { text: `${kubectlErrorMessage(e)}\n`, exitCode: 1 };
  }
}

/** The in-app command for a recorded one: `-f FILE` becomes `-f -` with the file on stdin. */
function inApp(c: Cluster, args: string): { text: string; exitCode: number } {
  if (args.startsWith('replace ')) return replace(c, args);
  const file = /-f (\S+)/.exec(args)?.[1];
  const r = file ? c.kubectl(args.replace(`-f ${file}`, '-f -'), readFileSync(join(ROOT, file), 'utf8')) : c.kubectl(args);
  let text = `${r.output}${r.error ?? ''}`;
  if (file) text = text.replaceAll('"STDIN"', `"${file}"`);
  return { text, exitCode: r.exitCode };
}

describe('API fidelity transcript (testdata/fidelity.txt) replayed by the in-app kubectl', () => {
  const c = new Cluster();
  expect(c.kubectl('apply -f -', OBJECTS).exitCode).toBe(0);
  c.settle(600_000);
  for (const b of GOLDEN) {
    it(`kubectl ${b.args}`, () => {
      const r = inApp(c, b.args);
      expect({ out: normalise(r.text).replace(/\n+$/, ''), exit: r.exitCode }).toEqual({
        out: b.output.replace(/\n+$/, ''),
        exit: b.exitCode,
      });
    });
  }
});

/**
 * Replays src/server/testdata/token.txt (real kubectl against the server, recorded by
 * src/cli/record-token-goldens.ts: `kubectl create token` with its flags and errors, then the
 * tokens used with `--token`) through the in-app kubectl on a fresh cluster, line by line in
 * order: every block prints what real kubectl printed, after the golden normalisation
 * (src/server/golden.ts: JWTs `<jwt>`, uids, times), with the same exit code. `$T` is the token
 * the in-app `create token` printed before it, as the recorder substituted real kubectl's. The
 * in-app kubectl has no `wait`: that line runs the cluster until the Pod is scheduled.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { normalise, parseTranscript } from './golden';
import { TOKEN_STEPS, lastToken } from '../cli/token-golden-steps';

const GOLDEN = parseTranscript(readFileSync(join(__dirname, 'testdata/token.txt'), 'utf8'));

describe('token transcript (testdata/token.txt) replayed by the in-app kubectl', () => {
  it('records one block per scripted line', () => {
    expect(GOLDEN.map((b) => b.args)).toEqual(TOKEN_STEPS);
  });
  const c = new Cluster();
  const raws: string[] = [];
  TOKEN_STEPS.forEach((line, i) => {
    it(`kubectl ${line}`, () => {
      if (line.startsWith('wait ')) {
        // the in-app kubectl has no `wait`: the cluster runs until the Pod is scheduled
        c.settle(10_000);
        raws.push('');
        expect(c.objects().find((o) => o.kind === 'Pod' && o.metadata.name === 'web')?.spec.nodeName).toBeTruthy();
        expect(GOLDEN[i].output).toBe('pod/web condition met\n');
        return;
      }
      const r = c.kubectl(line.replace('$T', lastToken(TOKEN_STEPS, raws)));
      const out = `${r.output}${r.error ?? ''}`;
      raws.push(out);
      expect({ out: normalise(out).replace(/\n+$/, ''), exit: r.exitCode }).toEqual({
        out: GOLDEN[i].output.replace(/\n+$/, ''),
        exit: GOLDEN[i].exitCode,
      });
    });
  });
});

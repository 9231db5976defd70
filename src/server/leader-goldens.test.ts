/**
 * Replays src/server/testdata/leader-election.txt (real kubectl v1.32 against an HA control
 * plane, recorded by src/cli/record-leader-goldens.ts) through the in-app kubectl at the same
 * simulated moments (src/cli/leader-golden-script.ts: the leaders' node killed, 5 s later the
 * Lease is still held, 30 s later a standby holds it): every line prints what real kubectl
 * printed, after the golden normalisation (src/server/golden.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalise, parseTranscript } from './golden';
import { LEADER_GOLDEN_STEPS, leaderGoldenActions, leaderGoldenCluster } from '../cli/leader-golden-script';

const GOLDEN = parseTranscript(readFileSync(join(__dirname, 'testdata/leader-election.txt'), 'utf8'));

describe('leader-election transcript (testdata/leader-election.txt) replayed by the in-app kubectl', () => {
  it('records one block per scripted line', () => {
    expect(GOLDEN.map((b) => b.args)).toEqual(LEADER_GOLDEN_STEPS.map((s) => s.line));
  });
  const c = leaderGoldenCluster();
  LEADER_GOLDEN_STEPS.forEach((s, i) => {
    it(`${s.kill ? `after killing ${s.kill}, ` : ''}${s.advanceMs ? `+${s.advanceMs / 1000} s: ` : ''}kubectl ${s.line}`, () => {
      leaderGoldenActions(c, s);
      const r = c.kubectl(s.line);
      expect({ out: normalise(`${r.output}${r.error ?? ''}`).replace(/\n+$/, ''), exit: r.exitCode }).toEqual({
        out: GOLDEN[i].output.replace(/\n+$/, ''),
        exit: GOLDEN[i].exitCode,
      });
    });
  });
});

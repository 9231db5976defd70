/**
 * `npm run soak [-- --runs 10000 --seed S --max-actions 30]`: the invariants of
 * src/cluster/testing/invariants.ts over many seeded random fault sequences (fast-check).
 * Prints progress; on a failure prints the seed, the shrunk action list and its step log,
 * and exits 1. Replay one with `--seed S --runs N` (the same seed gives the same sequences).
 */
import fc from 'fast-check';
import { runSequence } from '../cluster/testing/invariants';
import { sequenceArb } from '../cluster/testing/arbitraries';
import { argsOrExit } from './args';
import { SOAK_USAGE, parseSoakArgs } from './soak-args';

const { runs, seed, maxActions } = argsOrExit(SOAK_USAGE, () => parseSoakArgs(process.argv.slice(2)));

let done = 0;
const t0 = performance.now();
let lastLog: string[] = [];
const res = fc.check(
  fc.property(fc.integer({ min: 1, max: 1_000_000 }), sequenceArb(maxActions), (clusterSeed, actions) => {
    const r = runSequence(clusterSeed, actions);
    done++;
    if (done % 100 === 0) process.stdout.write(`${done} sequences, ${Math.round((performance.now() - t0) / 1000)} s\n`);
    if (r.violation) {
      lastLog = r.log;
      throw new Error(r.violation);
    }
  }),
  { seed, numRuns: runs },
);
if (res.failed) {
  process.stdout.write(`FAILED (fast-check seed ${seed}, path ${res.counterexamplePath})\n`);
  process.stdout.write(`counterexample: ${JSON.stringify(res.counterexample)}\n`);
  process.stdout.write(`violation: ${(res.errorInstance as Error | undefined)?.message}\n`);
  const [clusterSeed, actions] = res.counterexample ?? [0, []];
  const replay = res.counterexample ? runSequence(clusterSeed, actions) : { log: lastLog };
  process.stdout.write(`cluster seed ${clusterSeed}; step log of the shrunk sequence:\n${replay.log.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`ok: ${res.numRuns} sequences (seed ${seed}) in ${Math.round((performance.now() - t0) / 1000)} s\n`);

/**
 * How many cases a fuzz property runs: `base` in the normal test run (fixed seed, a few
 * seconds), `FUZZ_RUNS` when set (`npm run fuzz` sets 2,000). Test support only: it reads the
 * test process's environment, never imported by the engine.
 */
export function fuzzRuns(base: number): number {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.FUZZ_RUNS;
  const n = Number(env);
  return Number.isInteger(n) && n > 0 ? n : base;
}

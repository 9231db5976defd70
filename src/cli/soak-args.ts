/**
 * The command line of `npm run soak [-- --runs 10000 --seed S --max-actions 30]`, checked
 * before any sequence runs (args.ts messages).
 */
import { UsageError, intFlag, parseArgs } from './args';

export const SOAK_USAGE = 'usage: npm run soak -- [--runs N] [--seed S] [--max-actions N]';

export interface SoakArgs {
  /** Sequences to run, 1..10,000,000 (default 10,000). */
  runs: number;
  /** fast-check's seed, a 32-bit signed integer (default 1). */
  seed: number;
  /** Most actions per sequence, 1..1000 (default 30). */
  maxActions: number;
  help: boolean;
}

/** @throws UsageError `invalid argument "abc" for "--runs" flag: must be an integer from 1 to 10000000` */
export function parseSoakArgs(argv: readonly string[]): SoakArgs {
  const args = parseArgs(
    argv.filter((a) => a !== '--'),
    { runs: 'value', seed: 'value', 'max-actions': 'value' },
  );
  if (args.positional.length) throw new UsageError(`unexpected argument ${JSON.stringify(args.positional[0])}`);
  return {
    runs: intFlag(args, 'runs', 10_000, 1, 10_000_000),
    seed: intFlag(args, 'seed', 1, -2147483648, 2147483647),
    maxActions: intFlag(args, 'max-actions', 30, 1, 1000),
    help: args.flags.has('help'),
  };
}

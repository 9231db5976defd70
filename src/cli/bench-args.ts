/**
 * The command line of `npm run bench [-- --big] [-- --only NAME] [-- --no-peer] [-- --no-warm]
 * [-- --readme]`, checked
 * before any case runs (args.ts messages): `--only` must name a case of docs/benchmarks.md.
 */
import { UsageError, invalidArgument, parseArgs, strFlag } from './args';

export const BENCH_USAGE = 'usage: npm run bench -- [--big] [--only CASE] [--no-peer] [--no-warm] [--readme]';

/** Engine case names (docs/benchmarks.md, plus the two halves of the peer ratio). */
export const ENGINE_CASES = [
  'seed-3-replicas',
  'pods-1k-nodes-100',
  'pods-10k-nodes-1k',
  'scheduler-nodes-5k',
  'idle-nodes-5k-1h',
  'pods-30-nodes-30',
  'pods-300-nodes-30',
  'node-kill-pods-1k',
  'pods-150k-nodes-5k',
] as const;
/** Output cases: the bytes of `npm run scenario`'s result (bench.ts measureOutput). */
export const OUTPUT_CASES = ['scenario-json-300'] as const;
/** The peer's cases (bench-peer.ts); `--only` with one of them, or `--only webernetes`, runs the peer only. */
export const PEER_CASES = ['webernetes-seed-3-replicas', 'webernetes-pods-30-nodes-30', 'webernetes-pods-300-nodes-30'] as const;

export interface BenchArgs {
  /** Also run pods-150k-nodes-5k (also implied by `--only pods-150k-nodes-5k`). */
  big: boolean;
  only?: string;
  /** Run the webernetes cases. */
  peer: boolean;
  /** Set by `--no-warm`: run each case once (no warm figures). Absent otherwise. */
  noWarm?: true;
  /** Set by `--readme`: only rewrite README.md's tables from bench/results.json (bench-readme.ts). */
  readme?: true;
  /** Internal: run this one case in this process and print its result (the parent spawns it). */
  child?: string;
  help: boolean;
}

/** @throws UsageError `invalid argument "x" for "--only" flag: no such case (cases: …)` */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  // `npm run bench -- --big -- --only X` passes a second `--`: no positionals here, so it is skipped
  const args = parseArgs(
    argv.filter((a) => a !== '--'),
    { big: 'bool', only: 'value', 'no-peer': 'bool', 'no-warm': 'bool', readme: 'bool', case: 'value' },
  );
  if (args.positional.length) throw new UsageError(`unexpected argument ${JSON.stringify(args.positional[0])}`);
  const only = strFlag(args, 'only');
  const known = [...ENGINE_CASES, ...OUTPUT_CASES, 'webernetes', ...PEER_CASES];
  if (only !== undefined && !known.includes(only)) throw invalidArgument('only', only, `no such case (cases: ${known.join(', ')})`);
  const child = strFlag(args, 'case');
  if (child !== undefined && !(ENGINE_CASES as readonly string[]).includes(child))
    throw invalidArgument('case', child, `no such engine case (cases: ${ENGINE_CASES.join(', ')})`);
  return {
    big: args.flags.has('big') || only === 'pods-150k-nodes-5k',
    only,
    peer: !args.flags.has('no-peer') && (!only || only.startsWith('webernetes')),
    ...(args.flags.has('no-warm') ? { noWarm: true as const } : {}),
    ...(args.flags.has('readme') ? { readme: true as const } : {}),
    ...(child !== undefined ? { child } : {}),
    help: args.flags.has('help'),
  };
}

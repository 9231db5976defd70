/**
 * Command-line flags for the `npm run …` entry points, parsed and checked before anything
 * runs. Messages follow spf13/pflag (kubectl's flag library): `unknown flag: --x`,
 * `unknown shorthand flag: 'x' in -x`, `flag needs an argument: --out`, `invalid argument
 * "abc" for "--runs" flag: …`. {@link runMain} prints `error: <message>` and the usage line on
 * stderr and exits 1; no entry point ever ends with a stack trace.
 */
import { statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A bad command line; printed with the usage line. */
export class UsageError extends Error {}

/** Where an entry point writes (injected by tests). */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * Writes all of `text` to file descriptor `fd` before returning, waiting while a pipe is full
 * (EAGAIN): `process.stdout.write` to a pipe queues what the pipe does not take, and the
 * `process.exit` of {@link runMain} would drop it (a scenario's JSON read through a pipe came
 * out cut). A reader that went away (EPIPE, `| head`) ends the process quietly.
 */
export function writeAllSync(fd: number, text: string): void {
  const buf = Buffer.from(text, 'utf8');
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') process.exit(0);
      if (code !== 'EAGAIN') throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
    }
  }
}

export const processIO: CliIO = {
  stdout: (t) => writeAllSync(1, t),
  stderr: (t) => void process.stderr.write(t),
};

/** Flag name (without dashes) → whether it takes a value. */
export type FlagSpec = Record<string, 'value' | 'bool'>;

export interface ParsedArgs {
  /** Each flag's last value (`true` for a bool flag), as pflag keeps the last. */
  flags: Map<string, string | true>;
  positional: string[];
}

/**
 * Parses `--name value`, `--name=value`, bool `--name`, positionals, and `--` (the rest is
 * positional). `--help`/`-h` are always known (bool). A value may not start with `--`, so
 * `--out --mermaid x` is `flag needs an argument: --out` rather than a file named "--mermaid".
 * @throws UsageError
 */
export function parseArgs(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  const all: FlagSpec = { help: 'bool', ...spec };
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (a === '-h') {
      flags.set('help', true);
      continue;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = a.slice(2, eq < 0 ? undefined : eq);
      const kind = Object.hasOwn(all, name) ? all[name] : undefined;
      if (!kind) throw new UsageError(`unknown flag: --${name}`);
      if (kind === 'bool') {
        if (eq >= 0 && !['true', 'false'].includes(a.slice(eq + 1)))
          throw new UsageError(
            `invalid argument ${JSON.stringify(a.slice(eq + 1))} for "--${name}" flag: strconv.ParseBool: parsing ${JSON.stringify(a.slice(eq + 1))}: invalid syntax`,
          );
        if (eq < 0 || a.slice(eq + 1) === 'true') flags.set(name, true);
        else flags.delete(name);
        continue;
      }
      let value: string | undefined;
      if (eq >= 0) value = a.slice(eq + 1);
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) value = argv[++i];
      if (value === undefined) throw new UsageError(`flag needs an argument: --${name}`);
      flags.set(name, value);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) throw new UsageError(`unknown shorthand flag: '${a[1]}' in ${a}`);
    positional.push(a);
  }
  return { flags, positional };
}

/** pflag's `invalid argument "v" for "--name" flag: why`. */
export function invalidArgument(name: string, value: string, why: string): UsageError {
  return new UsageError(`invalid argument ${JSON.stringify(value)} for "--${name}" flag: ${why}`);
}

/**
 * An integer flag within [min, max]: digits only (an optional leading `-`), so `1e3`, `0x10`,
 * `Infinity`, `NaN`, `1.5` and `` are refused.
 * @throws UsageError `invalid argument "abc" for "--runs" flag: must be an integer from 1 to 1000000`
 */
export function intFlag(args: ParsedArgs, name: string, dflt: number, min: number, max: number): number {
  const v = args.flags.get(name);
  if (v === undefined) return dflt;
  const text = String(v);
  const n = /^-?\d{1,16}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw invalidArgument(name, text, `must be an integer from ${min} to ${max}`);
  return n;
}

/** A string flag's value, or undefined. */
export function strFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return v === undefined ? undefined : String(v);
}

/**
 * A path the entry point will write: not empty, its folder exists and is a folder, and the
 * path itself is not a folder (checked before any work, so a long run does not end in an
 * error). Returns the path unchanged.
 * @throws UsageError `invalid argument "no/such/r.json" for "--out" flag: folder "no/such" does not exist`
 */
export function outputPathFlag(args: ParsedArgs, name: string): string | undefined {
  const p = strFlag(args, name);
  if (p === undefined) return undefined;
  if (p === '') throw invalidArgument(name, p, 'must be a file path');
  const dir = dirname(p);
  const d = statOrNull(dir);
  if (!d) throw invalidArgument(name, p, `folder ${JSON.stringify(dir)} does not exist`);
  if (!d.isDirectory()) throw invalidArgument(name, p, `${JSON.stringify(dir)} is not a folder`);
  const f = statOrNull(p);
  if (f?.isDirectory()) throw invalidArgument(name, p, 'is a folder, not a file');
  return p;
}

function statOrNull(p: string) {
  try {
    return statSync(p);
  } catch {
    return null;
  }
}

/**
 * Runs an entry point's main and exits with its code. A UsageError prints `error: …` and
 * the usage line; any other error prints `error: <message>` only (never a stack trace).
 */
export async function runMain(usage: string, main: () => Promise<number> | number, io: CliIO = processIO): Promise<never> {
  const code = await mainCode(usage, main, io);
  process.exit(code);
}

/** {@link runMain} without the exit: the exit code (tests). */
export async function mainCode(usage: string, main: () => Promise<number> | number, io: CliIO): Promise<number> {
  try {
    return await main();
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    io.stderr(`error: ${msg.split('\n')[0]}\n`);
    if (e instanceof UsageError) io.stderr(`${usage}\n`);
    return 1;
  }
}

/**
 * For entry points whose work runs at module top level (bench, soak): parses the command
 * line, or prints `error: …` and the usage line and exits 1. `--help` prints the usage and
 * exits 0.
 */
export function argsOrExit<T extends { help: boolean }>(usage: string, parse: () => T, io: CliIO = processIO): T {
  try {
    const a = parse();
    if (a.help) {
      io.stdout(`${usage}\n`);
      process.exit(0);
    }
    return a;
  } catch (e) {
    io.stderr(`error: ${(e as Error).message}\n${usage}\n`);
    process.exit(1);
  }
}

/**
 * True when the module at `url` is the script node was started with (tsx keeps or drops the
 * .ts), or when node runs its bundle: `dist-cli/NAME.mjs` is the entry of `src/cli/NAME.ts`
 * (vite.cli.config.ts keeps each module's source URL, so a module an entry imports is not
 * taken for the entry).
 */
export function isMainModule(url: string): boolean {
  const arg = process.argv[1];
  if (!arg) return false;
  const strip = (p: string) => p.replace(/\.[cm]?[jt]s$/, '');
  const main = strip(resolve(arg));
  const self = strip(fileURLToPath(url));
  if (main === self) return true;
  const bundled = /^(.*)\/dist-cli\/([^/]+)$/.exec(main);
  return !!bundled && self === `${bundled[1]}/src/cli/${bundled[2]}`;
}

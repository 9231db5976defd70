/**
 * `npm run scenario -- path/to/scenario.yaml [--out result.json] [--mermaid relay.mmd] [--pretty] [--relay full|folded]`
 *
 * Plays a scenario headless in fast-forward and prints the JSON result (docs/scenario-format.md):
 * compact JSON (`JSON.stringify(result)`), with 2-space indentation under `--pretty`, written in
 * chunks of about 1 MiB (result-json.ts). `--relay folded` writes the relay folded
 * (cluster/relay/folded.ts, docs/scenario-format.md#folded-relay) with `"relayForm": "folded"` before it.
 * Exit 0 when the scenario ran (rejected applies and failed steps are data), 1 when the
 * command line or the file is invalid: `error: FILE: WHERE: PROBLEM` on stderr, checked
 * before anything runs (cluster/scenario/text.ts, scenario-files.ts).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ScenarioError } from '../cluster/scenario/fields';
import { parseScenarioText } from '../cluster/scenario/text';
import { runScenario } from '../cluster/scenario/runner';
import { relayToMermaid } from '../cluster/relay/sequence/to-mermaid';
import { foldRelay } from '../cluster/relay/folded';
import { UsageError, invalidArgument, isMainModule, outputPathFlag, parseArgs, processIO, runMain, strFlag, type CliIO } from './args';
import { FileError, checkScenarioFiles, readRegularFile, runnerIO } from './scenario-files';
import { writeJSON } from './result-json';

export const SCENARIO_USAGE =
  'usage: npm run scenario -- SCENARIO.yaml [--out result.json] [--mermaid relay.mmd] [--pretty] [--relay full|folded]';

/** The `--relay` flag: `full` (the default) or `folded`. @throws UsageError for another value */
function relayFormFlag(args: ReturnType<typeof parseArgs>): 'full' | 'folded' {
  const v = strFlag(args, 'relay') ?? 'full';
  if (v !== 'full' && v !== 'folded') throw invalidArgument('relay', v, 'must be "full" or "folded"');
  return v;
}

/** Writes `text` pieces to a new file (or truncates it). */
function fileWriter(path: string): { write: (s: string) => void; close: () => void } {
  const fd = openSync(path, 'w');
  return { write: (s) => void writeSync(fd, s), close: () => closeSync(fd) };
}

/**
 * The entry point with injected argv and output: validates the flags, reads and validates the
 * scenario, plays it and writes the result. Returns the exit code.
 * @throws UsageError for a bad command line (runMain prints it with the usage line).
 */
export function scenarioMain(argv: readonly string[], io: CliIO): number {
  const args = parseArgs(argv, { out: 'value', mermaid: 'value', pretty: 'bool', relay: 'value' });
  if (args.flags.has('help')) {
    io.stdout(`${SCENARIO_USAGE}\n`);
    return 0;
  }
  if (args.positional.length === 0) throw new UsageError('a scenario file is required');
  if (args.positional.length > 1)
    throw new UsageError(`one scenario file at a time (got ${args.positional.length}: ${args.positional.join(' ')})`);
  const file = args.positional[0];
  const out = outputPathFlag(args, 'out');
  const mermaid = outputPathFlag(args, 'mermaid');
  const relayForm = relayFormFlag(args);

  let text: string;
  try {
    text = readRegularFile(file);
  } catch (e) {
    if (!(e instanceof FileError)) throw e;
    io.stderr(`error: ${e.message}\n`);
    return 1;
  }
  let sc;
  try {
    sc = parseScenarioText(text);
    checkScenarioFiles(sc, dirname(resolve(file)));
  } catch (e) {
    if (!(e instanceof ScenarioError)) throw e;
    io.stderr(`error: ${file}: ${e.message}\n`);
    return 1;
  }
  const result = runScenario(sc, runnerIO(file));
  const indent = args.flags.has('pretty') ? 2 : 0;
  let doc: unknown = result;
  if (relayForm === 'folded') {
    const { relay, ...rest } = result;
    doc = { ...rest, relayForm, relay: foldRelay(relay) };
  }
  if (out) {
    const w = fileWriter(out);
    try {
      writeJSON(doc, w.write, 3, 1 << 20, indent);
    } finally {
      w.close();
    }
  } else writeJSON(doc, io.stdout, 3, 1 << 20, indent);
  if (mermaid) {
    const w = fileWriter(mermaid);
    try {
      w.write(relayToMermaid(result.relay.map((h) => ({ ...h, time: Date.parse(h.time) }))));
    } finally {
      w.close();
    }
  }
  return 0;
}

if (isMainModule(import.meta.url)) void runMain(SCENARIO_USAGE, () => scenarioMain(process.argv.slice(2), processIO));

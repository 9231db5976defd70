/**
 * `npm run scenario -- path/to/scenario.yaml [--out result.json] [--mermaid relay.mmd]`
 *
 * Plays a scenario headless in fast-forward and prints the JSON result (docs/scenario-format.md).
 * Exit 0 when the scenario ran (rejected applies are data), 1 when the file is invalid.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { parseScenario, ScenarioError } from '../cluster/scenario/scenario';
import { runScenario } from '../cluster/scenario/runner';
import { relayToMermaid } from '../ui/sequence/to-mermaid';
import { kustomizeDir } from './kustomize';

function usage(): never {
  process.stderr.write('usage: npm run scenario -- SCENARIO.yaml [--out result.json] [--mermaid relay.mmd]\n');
  process.exit(1);
}

const argv = process.argv.slice(2);
let file: string | undefined;
let out: string | undefined;
let mermaid: string | undefined;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--out') out = argv[++i];
  else if (argv[i] === '--mermaid') mermaid = argv[++i];
  else if (argv[i].startsWith('--')) usage();
  else file = argv[i];
}
if (!file) usage();

let text: string;
try {
  text = readFileSync(file, 'utf8');
} catch (e) {
  process.stderr.write(`error: cannot read ${file}: ${(e as Error).message}\n`);
  process.exit(1);
}
let sc;
try {
  sc = parseScenario(parse(text, { maxAliasCount: 100 }));
} catch (e) {
  const msg = e instanceof ScenarioError ? e.message : `invalid YAML: ${(e as Error).message}`;
  process.stderr.write(`error: ${file}: ${msg}\n`);
  process.exit(1);
}
const base = dirname(resolve(file));
const result = runScenario(sc, { readFile: (p) => readFileSync(resolve(base, p), 'utf8'), kustomize: (p) => kustomizeDir(resolve(base, p)) });
const json = JSON.stringify(result, null, 2) + '\n';
if (out) writeFileSync(out, json);
else process.stdout.write(json);
if (mermaid) writeFileSync(mermaid, relayToMermaid(result.relay.map((h) => ({ ...h, time: Date.parse(h.time) }))));

/**
 * A scenario file's text → a validated {@link Scenario}: the size limit, then YAML with its
 * resource-exhaustion guards (alias expansions, nesting depth, one document), then
 * parseScenario. The headless runner, `npm run apiserver --scenario` and the UI's tours
 * (worker/cluster-api.ts parseTour) all load scenarios through here or parseScenario.
 */
import { Lexer, parseDocument } from 'yaml';
import { ScenarioError } from './fields';
import { MAX_FILE_BYTES, MAX_YAML_ALIASES, MAX_YAML_DEPTH } from './limits';
import { parseScenario, type Scenario } from './scenario';

/** `3 MiB (3145728 bytes)`. */
export function formatBytes(n: number): string {
  return n % 1048576 === 0 ? `${n / 1048576} MiB (${n} bytes)` : `${n} bytes`;
}

/** UTF-8 length without encoding (the text may be large). */
function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** `line 3, column 5` of a character offset (1-based, as the YAML parser counts). */
function lineCol(text: string, offset: number): string {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return `line ${line}, column ${offset - start + 1}`;
}

/**
 * True when flow collections (`[[[…]]]`, `{a: {b: …}}`) nest deeper than `limit`, found by
 * the YAML lexer alone (block scalars such as manifests are single tokens), before the
 * parser, which recurses per level, is asked to build them.
 */
function flowDepthOver(text: string, limit: number): boolean {
  let depth = 0;
  for (const tok of new Lexer().lex(text)) {
    if (tok === '[' || tok === '{') {
      if (++depth > limit) return true;
    } else if (tok === ']' || tok === '}') depth = Math.max(0, depth - 1);
  }
  return false;
}

/** The deepest nesting of lists and mappings in a parsed value, counted without recursion, stopping past `limit`. */
function depthOver(v: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[v, 0]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (typeof x !== 'object' || x === null) continue;
    if (d + 1 > limit) return true;
    for (const c of Array.isArray(x) ? x : Object.values(x)) stack.push([c, d + 1]);
  }
  return false;
}

/**
 * Parses and validates a scenario file's text.
 * @throws ScenarioError: `scenario: the file is N bytes; the limit is 3 MiB (3145728 bytes)`,
 * `invalid YAML: …` (line and column as the YAML parser reports them), `invalid YAML: more
 * than 100 alias expansions …`, `invalid YAML: nested deeper than 64 levels`, or any
 * message of {@link parseScenario}.
 */
export function parseScenarioText(text: string): Scenario {
  const bytes = text.length > MAX_FILE_BYTES ? text.length : utf8Length(text);
  if (bytes > MAX_FILE_BYTES) throw new ScenarioError(`scenario: the file is ${bytes} bytes; the limit is ${formatBytes(MAX_FILE_BYTES)}`);
  if (flowDepthOver(text, MAX_YAML_DEPTH)) throw new ScenarioError(`invalid YAML: nested deeper than ${MAX_YAML_DEPTH} levels`);
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const err = doc.errors[0];
  if (err) {
    if (/call stack/i.test(err.message)) throw new ScenarioError(`invalid YAML: nested deeper than ${MAX_YAML_DEPTH} levels`);
    if (err.code === 'MULTIPLE_DOCS')
      throw new ScenarioError('invalid YAML: a scenario is one YAML document (found another after a `---` line)');
    throw new ScenarioError(`invalid YAML: ${lineCol(text, err.pos[0])}: ${err.message}`);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (e) {
    const msg = (e as Error).message;
    const unresolved = /^Unresolved alias[^:]*: (.*)$/.exec(msg);
    if (unresolved) throw new ScenarioError(`invalid YAML: unknown anchor '${unresolved[1]}' referenced`);
    if (/alias count/i.test(msg)) throw new ScenarioError(`invalid YAML: more than ${MAX_YAML_ALIASES} alias expansions (an alias bomb)`);
    if (e instanceof RangeError) throw new ScenarioError(`invalid YAML: nested deeper than ${MAX_YAML_DEPTH} levels`);
    throw new ScenarioError(`invalid YAML: ${msg}`);
  }
  if (depthOver(value, MAX_YAML_DEPTH)) throw new ScenarioError(`invalid YAML: nested deeper than ${MAX_YAML_DEPTH} levels`);
  return parseScenario(value);
}

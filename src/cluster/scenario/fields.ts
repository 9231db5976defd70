/**
 * Small helpers for validating a parsed scenario document (scenario.ts, nodes.ts): the
 * error type and strict field checks, so that a typo such as `settle: {for: 5m, quite: 30s}`
 * is an error naming the field rather than a value silently ignored (kubectl's strict field
 * validation says `unknown field "spec.x"`; a scenario file is a program, so it is refused).
 */

/** Thrown for an invalid scenario file; the CLI prints it after the file name and exits 1. */
export class ScenarioError extends Error {}

/** A YAML mapping (not a list, not null). */
export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** How a wrong value is described in messages: `a list`, `a mapping`, `a number`, `null`. */
export function kindOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'number') return `the number ${v}`;
  if (typeof v === 'boolean') return `${v}`;
  return `the string ${JSON.stringify(v)}`;
}

/**
 * Refuses fields other than `allowed`.
 * @throws ScenarioError `WHERE: unknown field "quite" (expected one of for, quiet)`
 */
export function checkFields(v: Record<string, unknown>, where: string, allowed: readonly string[]): void {
  for (const k of Object.keys(v)) {
    if (!allowed.includes(k))
      throw new ScenarioError(
        `${where}: unknown field ${JSON.stringify(k)} (expected ${allowed.length === 1 ? allowed[0] : `one of ${allowed.join(', ')}`})`,
      );
  }
}

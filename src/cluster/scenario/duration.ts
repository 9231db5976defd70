/**
 * Durations as scenario files and kubectl flags write them: "500ms", "90s", "6m", "1h",
 * "1m30s" (Go's time.ParseDuration units ms, s, m, h).
 */

/** Parses a duration to milliseconds. Throws Error(`invalid duration "x"`) on bad input. */
export function parseDuration(text: string | number): number {
  if (typeof text === 'number' && Number.isFinite(text) && text >= 0) return text * 1000;
  const s = String(text).trim();
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(s)) throw new Error(`invalid duration "${text}"`);
  let total = 0;
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) {
    const n = Number(m[1]);
    total += m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n * 3600_000;
  }
  return Math.round(total);
}

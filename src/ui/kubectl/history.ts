/**
 * Shell-style command history for the kubectl bar: ↑ walks back, ↓ forward, and walking past
 * the newest entry gives back what was being typed (the draft). Consecutive duplicates and
 * blank lines are not recorded; the oldest entries drop off past `cap`. Pure and immutable:
 * every operation returns a new value.
 */
export interface History {
  entries: readonly string[];
  /** Index into entries while browsing; entries.length when not browsing. */
  cursor: number;
  /** What was typed before browsing started. */
  draft: string;
}

export const HISTORY_CAP = 200;

export function emptyHistory(entries: readonly string[] = []): History {
  return { entries, cursor: entries.length, draft: '' };
}

/** Records a command that was run; browsing ends. */
export function pushHistory(h: History, line: string, cap = HISTORY_CAP): History {
  const t = line.trim();
  let entries = h.entries;
  if (t && entries.at(-1) !== t) entries = [...entries, t].slice(-cap);
  return { entries, cursor: entries.length, draft: '' };
}

/** ↑: the previous entry (stays at the oldest). `current` is the input's text now. */
export function historyUp(h: History, current: string): { history: History; text: string } {
  if (!h.entries.length) return { history: h, text: current };
  const draft = h.cursor === h.entries.length ? current : h.draft;
  const cursor = Math.max(0, h.cursor - 1);
  return { history: { ...h, cursor, draft }, text: h.entries[cursor] };
}

/** ↓: the next entry, or the draft past the newest. */
export function historyDown(h: History, current: string): { history: History; text: string } {
  if (h.cursor >= h.entries.length) return { history: h, text: current };
  const cursor = h.cursor + 1;
  return { history: { ...h, cursor }, text: cursor === h.entries.length ? h.draft : h.entries[cursor] };
}

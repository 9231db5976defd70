/** '/'-separated path helpers (no node:path: this runs in the browser too). */

/** Joins and normalizes (`.`/`..` resolved); absolute when `base` is. */
export function join(base: string, p: string): string {
  const abs = p.startsWith('/');
  const parts = (abs ? p : `${base}/${p}`).split('/');
  const out: string[] = [];
  for (const s of parts) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!(abs || base.startsWith('/'))) out.push('..');
    } else out.push(s);
  }
  const lead = abs || base.startsWith('/') ? '/' : '';
  return lead + out.join('/') || (lead ? '/' : '.');
}

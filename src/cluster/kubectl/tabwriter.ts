/**
 * kubectl's table layout: text/tabwriter with minwidth 6, padding 3, pad char ' '
 * (k8s.io/cli-runtime/pkg/printers/tabwriter.go GetNewTabWriter). The last column is not padded.
 */
export function formatTable(rows: string[][]): string {
  if (!rows.length) return '';
  const cols = Math.max(...rows.map((r) => r.length));
  const widths: number[] = [];
  for (let c = 0; c < cols - 1; c++) {
    let w = 0;
    for (const r of rows) if (c < r.length - 1) w = Math.max(w, [...(r[c] ?? '')].length);
    widths.push(Math.max(6, w + 3));
  }
  return (
    rows.map((r) => r.map((cell, c) => (c < r.length - 1 ? cell + ' '.repeat(widths[c] - [...cell].length) : cell)).join('')).join('\n') +
    '\n'
  );
}

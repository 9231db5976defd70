/**
 * Text that fits its lane (pure): Mermaid spaces two neighbouring lanes as far apart as the
 * widest message between them, so a long etcd key ("put /registry/deployments.apps/default/
 * peekcart (rev 121)") pushes the kubelets off screen. The diagram wraps each message and note
 * into the room its lanes have — `laneChars` characters per lane of distance — on at most a
 * few lines, breaking at spaces, then after `/`, `-` or `.`; what still does not fit ends in
 * "…" and the whole text is the element's hover title (SequenceDiagram's `annotate`).
 */

/** Lines of `text` at most `maxChars` long, at most `maxLines` of them; `cut` when text was dropped. */
export function wrapText(text: string, maxChars: number, maxLines: number): { lines: string[]; cut: boolean } {
  const max = Math.max(4, Math.floor(maxChars));
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter(Boolean)) {
    let w = word;
    for (;;) {
      const room = line ? max - line.length - 1 : max;
      if (w.length <= room) {
        line = line ? `${line} ${w}` : w;
        break;
      }
      // a word that fits a line of its own starts one; a longer one fills the rest of this line
      // up to a "/", "-", "." or "=" (a whole line: anywhere)
      const at = w.length <= max && line ? 0 : breakAt(w, room, !line);
      if (at > 0) {
        line = line ? `${line} ${w.slice(0, at)}` : w.slice(0, at);
        w = w.slice(at);
      }
      lines.push(line);
      line = '';
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return { lines, cut: false };
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1];
  kept[maxLines - 1] = `${last.length >= max ? last.slice(0, max - 1) : last}…`;
  return { lines: kept, cut: true };
}

/** Where to break `w` to fit `room` characters: after a "/", "-", "." or "="; `anywhere` when none (0: do not). */
function breakAt(w: string, room: number, anywhere: boolean): number {
  if (room < 4) return 0;
  for (let i = Math.min(room, w.length - 1); i >= 3; i--) if ('/-.='.includes(w[i - 1])) return i;
  return anywhere ? room : 0;
}

/**
 * A lane's label on at most two lines: "replicaset-controller" → ["replicaset-", "controller"],
 * "kubelet/node-1" → ["kubelet/", "node-1"]; kept whole when it fits `maxChars`.
 */
export function laneLabel(name: string, maxChars: number): string[] {
  if (name.length <= maxChars) return [name];
  // a space first ("kube-proxy ×4"), then a "/" (kubelet/node-1), then the last "-" that leaves
  // a first line of at most maxChars (+2: a lane's label may be a little wider than its room)
  const space = name.indexOf(' ');
  let at = space > 0 ? space + 1 : name.indexOf('/') + 1;
  if (at <= 0) {
    for (let i = Math.min(name.length - 2, maxChars + 1); i > 0; i--) {
      if (name[i] === '-') {
        at = i + 1;
        break;
      }
    }
  }
  return at > 0 ? [name.slice(0, at).trim(), name.slice(at)] : [name];
}

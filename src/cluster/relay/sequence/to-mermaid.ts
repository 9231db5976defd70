/**
 * Relay hops → Mermaid `sequenceDiagram` text (pure; the UI renders it, the headless runner
 * can write it with `--mermaid`).
 *
 * Participants are declared in a fixed order that follows the seed's diagram — clients
 * (kubectl), kube-apiserver, etcd, the controllers (deployment, replicaset, then the others),
 * kube-scheduler, then per node its kubelet, containerd and kube-proxy — so the columns
 * never jump while the window slides. Each gets a safe id (P0, P1…) and its participant
 * name (docs/architecture.md#relay-participants) as the label.
 *
 * Arrows: request `->>`, response `-->>`, watch event `--)` (dashed, as the seed's
 * "watch로 발견"), decisions and notes as `Note over`. Every user-controlled string (object
 * names, messages) is escaped with Mermaid's entity codes, so it cannot end a statement,
 * start a comment or inject markup.
 */
import type { RelayHop } from '../relay-event';
import type { DrawnHop } from './story';
import { laneLabel, wrapText } from './fit-text';

export interface SequenceOptions {
  /** Show Lease renewals and node status heartbeats. */
  heartbeats: boolean;
  /** Show the apiserver's authn/authz/admission notes. */
  admission: boolean;
  /** Show Event writes (kubelet, scheduler… recording core/v1 Events). */
  events: boolean;
  /** Draw only `window` visible hops: the last ones, or the first ones from `fromSeq`. */
  window: number;
  /** When set, start at this hop (e.g. the latest apply) instead of following the newest. */
  fromSeq?: number | null;
}

/** Canonical controller order after deployment and replicaset (docs/architecture.md#relay-participants). */
const CONTROLLER_ORDER = [
  'deployment-controller',
  'replicaset-controller',
  'replication-controller',
  'node-lifecycle-controller',
  'endpointslice-controller',
  'garbage-collector-controller',
  'namespace-controller',
  'horizontal-pod-autoscaler-controller',
  'persistentvolume-binder-controller',
  'statefulset-controller',
  'daemonset-controller',
  'job-controller',
  'cronjob-controller',
];
const NODE_COMPONENTS = ['kubelet', 'containerd', 'kube-proxy'];

/** Sort key of a participant: [group, within-group rank, name]. */
function rank(p: string): [number, number, string] {
  if (p === 'kube-apiserver') return [1, 0, p];
  if (p === 'etcd') return [2, 0, p];
  if (p.endsWith('-controller')) {
    const i = CONTROLLER_ORDER.indexOf(p);
    return [3, i < 0 ? CONTROLLER_ORDER.length : i, p];
  }
  if (p === 'kube-scheduler') return [4, 0, p];
  // a folded lane of every node's agent ("kube-proxy ×4", story.ts): after the per-node lanes
  const many = / ×\d+$/.exec(p);
  if (many) {
    const comp = NODE_COMPONENTS.indexOf(p.slice(0, many.index));
    if (comp >= 0) return [5, comp, '\uffff'];
  }
  const slash = p.indexOf('/');
  if (slash > 0) {
    const comp = NODE_COMPONENTS.indexOf(p.slice(0, slash));
    if (comp >= 0) return [5, comp, p.slice(slash + 1)];
  }
  if (p === 'coredns') return [6, 0, p];
  return [0, p === 'kubectl' ? 0 : 1, p];
}

const collator = new Intl.Collator('en', { numeric: true });

/** Orders participants as the seed's diagram does (see the file comment). */
export function orderParticipants(names: Iterable<string>): string[] {
  return [...new Set(names)].sort((a, b) => {
    const ra = rank(a);
    const rb = rank(b);
    if (ra[0] !== rb[0]) return ra[0] - rb[0];
    // per-node components: group by node first, then kubelet < containerd < kube-proxy
    if (ra[0] === 5) return collator.compare(ra[2], rb[2]) || ra[1] - rb[1];
    return ra[1] - rb[1] || collator.compare(ra[2], rb[2]);
  });
}

const ENTITY: Record<string, string> = {
  '#': '#35;',
  ';': '#59;',
  '<': '#lt;',
  '>': '#gt;',
  '&': '#amp;',
  '%': '#37;',
  '"': '#quot;',
  '{': '#123;',
  '}': '#125;',
};

/** Makes any string safe as Mermaid message, note or label text (one line, no specials). */
export function escapeMermaidText(s: string, max = 160): string {
  // eslint-disable-next-line no-control-regex
  let t = s.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
  if (t.length > max) t = `${t.slice(0, max - 1)}…`;
  t = t.replace(/[#;<>&%"{}]/g, (c) => ENTITY[c]);
  return t || ' ';
}

/** Whether the options show a hop. */
export function isVisible(h: RelayHop, o: SequenceOptions): boolean {
  switch (h.category) {
    case 'heartbeat':
      return o.heartbeats;
    case 'admission':
      return o.admission;
    case 'event':
      return o.events;
    default:
      return true;
  }
}

/** The hops the diagram draws: visible ones, the last `window` of them (or the first from `fromSeq`). */
export function visibleHops(hops: readonly RelayHop[], o: SequenceOptions): RelayHop[] {
  const out: RelayHop[] = [];
  if (o.fromSeq != null) {
    for (const h of hops) {
      if (out.length >= o.window) break;
      if (h.seq >= o.fromSeq && isVisible(h, o)) out.push(h);
    }
    return out;
  }
  for (let i = hops.length - 1; i >= 0 && out.length < o.window; i--) {
    if (isVisible(hops[i], o)) out.push(hops[i]);
  }
  return out.reverse();
}

/** The UI's default view: heartbeats, admission notes and Event writes folded. */
export const DEFAULT_SEQUENCE_OPTIONS: SequenceOptions = { heartbeats: false, admission: false, events: false, window: 60 };

/**
 * The whole relay as the UI draws it (default folding, no window) — what the headless
 * runner writes with `--mermaid`.
 */
export function relayToMermaid(hops: readonly RelayHop[], options: Partial<SequenceOptions> = {}): string {
  return toMermaid(visibleHops(hops, { ...DEFAULT_SEQUENCE_OPTIONS, window: Infinity, ...options }));
}

/**
 * Renders hops (already filtered, oldest first) as a Mermaid sequenceDiagram; message text
 * longer than `messageMax` is cut with an ellipsis (a note's beyond {@link NOTE_MAX} at least).
 */
export function toMermaid(hops: readonly RelayHop[], messageMax = 160): string {
  return renderSequence(hops, messageMax, false).text;
}

/** A rendered diagram and, in drawing order, the seq of each message arrow and of each note. */
export interface RenderedSequence {
  text: string;
  /** seq per message text line (the SVG's `.messageText` elements, in order: one per line). */
  messages: number[];
  /** seq per note text line (the SVG's `.noteText` elements, in order: one per line). */
  notes: number[];
  /** Per entry of `messages`, the hop's whole text (hover title); present with `fit` or `noWrap` (the UI's renders). */
  messageTitles?: string[];
  /** Per entry of `notes`, the hop's whole text; present with `fit` or `noWrap`. */
  noteTitles?: string[];
  /** Per entry of `messages`, the watch event a folded delivery stands for (`verb resource ns/name rv cause`), else ''. */
  messageEvents?: string[];
}

/**
 * Fitting the diagram into its pane (fit-text.ts): `laneChars` characters of 12 px text fit in
 * the room of one lane; messages wrap into the lanes they span, notes into about one and a
 * half lanes, lane labels break after a `-` or `/`.
 */
export interface FitOptions {
  laneChars: number;
}

/** Lines a message may take, and a note. */
const MESSAGE_LINES = 3;
const NOTE_LINES = 4;
/** Most characters on a line of a note (or a self-arrow). */
const NOTE_CHARS = 24;

/** A drawn hop's whole text: its summary (or note), the watchers of a folded watch event, the agents of a folded reaction. */
export function wholeText(h: DrawnHop, group: boolean): string {
  const base = group && h.note !== undefined ? h.note : h.summary;
  const parts = [base];
  if (h.watchers && h.watchers.length > 1) {
    parts.push(`delivered to ${h.watchers.length} watchers: ${h.watchers.join(', ')}`);
    if (h.acting?.length) parts.push(`acted on by ${h.acting.join(', ')}`);
  }
  if (h.actors && h.actors.length > 1) parts.push(`each of ${h.actors.join(', ')}`);
  return parts.join(' — ');
}

/**
 * An etcd key drawn short in the story view, `put …/deployments.apps/default/peekcart (rev
 * 121)`: the `/registry/` prefix every key shares is what a message loses first (the whole
 * key is the hover title).
 */
function abbreviateKey(text: string): string {
  return text.replace(/^(put|delete|get) \/registry\//, '$1 …/');
}

/** What identifies a drawn watch event (`verb resource namespace/name resourceVersion cause`); '' for other hops. */
function eventKey(h: DrawnHop): string {
  return h.kind === 'watch'
    ? `${h.verb ?? ''} ${h.resource ?? ''} ${h.namespace ?? ''}/${h.name ?? ''} ${h.resourceVersion ?? ''} ${h.cause ?? ''}`
    : '';
}

/** The short text drawn for a hop: its summary (or note), and "+N watchers" for a folded event. */
function drawnText(h: DrawnHop, group: boolean): string {
  const base = group && h.note !== undefined ? h.note : h.summary;
  const lane = / ×(\d+)$/.exec(h.to);
  const others = (h.watchers?.length ?? 0) - (lane ? Number(lane[1]) : 1);
  return others > 0 ? `${base} (+${others} watcher${others === 1 ? '' : 's'})` : base;
}

/**
 * Notes (a controller's decision, "node-1: no Lease renewal observed for 55 s (>
 * node-monitor-grace-period 50 s) → NotReady") are cut only beyond this many characters, even
 * when messages are cut shorter: a note heads its reconciliation and says why it happened.
 */
export const NOTE_MAX = 120;

/** Background tints of alternating reconciliation blocks (`rect`). */
const GROUP_TINTS = ['rgba(66, 133, 244, 0.08)', 'rgba(52, 168, 83, 0.08)'];

/**
 * Renders hops as a Mermaid sequenceDiagram. With `group`, each run of hops of one
 * reconciliation (RelayHop.reconcile) is wrapped in a tinted `rect … end` block, and a
 * decision hop that opens one shows its note ("desired 3 ≠ current 2 → create 1 Pod")
 * instead of its longer summary. Every hop draws exactly one message or one note, so the
 * returned `messages`/`notes` map SVG elements back to hops.
 *
 * With `noWrap`, every participant label, message and note text starts with Mermaid's
 * `nowrap:` prefix (not drawn): Mermaid 12's sequence parser otherwise asks its configuration
 * whether to wrap for each statement, and each ask deep-copies the whole configuration (a
 * third of a 60-hop render's parse). It also keeps a name that starts with `wrap:` from being
 * read as the prefix.
 */
export function renderSequence(
  hops: readonly DrawnHop[],
  messageMax = 160,
  group = true,
  noWrap = false,
  fit?: FitOptions,
): RenderedSequence {
  const participants = orderParticipants(hops.flatMap((h) => [h.from, h.to]));
  const id = new Map(participants.map((p, i) => [p, `P${i}`]));
  const index = new Map(participants.map((p, i) => [p, i]));
  const frontEnd = index.get('etcd') ?? index.get('kube-apiserver') ?? 0;
  const lines = ['sequenceDiagram'];
  const messages: number[] = [];
  const notes: number[] = [];
  const messageTitles: string[] = [];
  const noteTitles: string[] = [];
  const messageEvents: string[] = [];
  const nowrap = noWrap ? 'nowrap:' : '';
  for (const p of participants) {
    const label = fit
      ? laneLabel(p, fit.laneChars)
          .map((l) => escapeMermaidText(l, 80))
          .join('<br/>')
      : escapeMermaidText(p, 80);
    lines.push(`  participant ${id.get(p)} as ${nowrap}${label}`);
  }
  let open: number | undefined;
  let blocks = 0;
  for (const h of hops) {
    if (group && h.reconcile !== open) {
      if (open !== undefined) lines.push('  end');
      open = h.reconcile;
      if (open !== undefined) lines.push(`  rect ${GROUP_TINTS[blocks++ % GROUP_TINTS.length]}`);
    }
    const pad = group && open !== undefined ? '    ' : '  ';
    const from = id.get(h.from)!;
    const to = id.get(h.to)!;
    const isNote = h.kind === 'decision' || h.kind === 'note';
    const max = isNote ? Math.max(messageMax, NOTE_MAX) : messageMax;
    let text: string;
    let count = 1;
    if (fit) {
      // the room between the lanes the arrow spans; a note or a self-arrow about 1.5 lanes
      const span = Math.abs(index.get(h.from)! - index.get(h.to)!);
      // kubectl ↔ kube-apiserver ↔ etcd: neighbours whose every message is between them (the
      // request, the etcd write, the response) get twice the room and a line more
      const front = span === 1 && Math.max(index.get(h.from)!, index.get(h.to)!) <= frontEnd;
      // a note or self-arrow: about a lane and a half, at most NOTE_CHARS (a lane is only as wide
      // as its widest neighbouring message, not its share of the pane)
      const chars = front ? 2 * fit.laneChars : span && !isNote ? span * fit.laneChars - 2 : Math.min(NOTE_CHARS, 1.5 * fit.laneChars);
      const w = wrapText(abbreviateKey(drawnText(h, group)), chars, isNote ? NOTE_LINES : MESSAGE_LINES + (front ? 1 : 0));
      count = w.lines.length;
      // lines are already as short as the lanes allow (wrapText); `max` does not cut them again
      text = `${nowrap}${w.lines.map((l) => escapeMermaidText(l, Infinity)).join('<br/>')}`;
      const title = wholeText(h, group);
      for (let i = 0; i < count; i++) (isNote ? noteTitles : messageTitles).push(title);
      if (!isNote) {
        const ev = eventKey(h);
        for (let i = 0; i < count; i++) messageEvents.push(ev);
      }
    } else {
      text = `${nowrap}${escapeMermaidText(drawnText(h, group), max)}`;
      // a text cut with "…" reads whole on hover; a folded watch event names its watchers there
      (isNote ? noteTitles : messageTitles).push(wholeText(h, group));
      if (!isNote) messageEvents.push(eventKey(h));
    }
    if (isNote) {
      // fitted, a note sits over its author's lane only: Mermaid sizes a note over two lanes by
      // their distance, not by its text, and the text would overflow the box
      lines.push(from === to || fit ? `${pad}Note over ${from}: ${text}` : `${pad}Note over ${from},${to}: ${text}`);
      for (let i = 0; i < count; i++) notes.push(h.seq);
    } else {
      const arrow = h.kind === 'watch' ? '--)' : h.kind === 'response' ? '-->>' : '->>';
      lines.push(`${pad}${from}${arrow}${to}: ${text}`);
      for (let i = 0; i < count; i++) messages.push(h.seq);
    }
  }
  if (group && open !== undefined) lines.push('  end');
  const out: RenderedSequence = { text: `${lines.join('\n')}\n`, messages, notes };
  if (fit || noWrap) Object.assign(out, { messageTitles, noteTitles, messageEvents });
  return out;
}

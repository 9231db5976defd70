import { describe, expect, it } from 'vitest';
import type { RelayHop } from '../store/types';
import {
  NOTE_MAX,
  escapeMermaidText,
  orderParticipants,
  relayToMermaid,
  renderSequence,
  toMermaid,
  visibleHops,
  type SequenceOptions,
} from '../../cluster/relay/sequence/to-mermaid';

let seq = 0;
function hop(from: string, to: string, kind: RelayHop['kind'], summary: string, extra: Partial<RelayHop> = {}): RelayHop {
  seq++;
  return { seq, time: seq, from, to, kind, summary, cause: null, ...extra };
}

const ALL: SequenceOptions = { heartbeats: true, admission: true, events: true, window: 1000 };

/** The seed's relay for a 3-replica Deployment, as the engine records it (abridged). */
function seedRelay(): RelayHop[] {
  return [
    hop('kubelet/node-2', 'kube-apiserver', 'request', 'update Lease kube-node-lease/node-2', { category: 'heartbeat' }),
    hop('kubectl', 'kube-apiserver', 'request', 'create Deployment default/peekcart'),
    hop('kube-apiserver', 'kube-apiserver', 'note', 'authn kubectl · authz allow create deployments · admission', {
      category: 'admission',
    }),
    hop('kube-apiserver', 'etcd', 'request', 'create Deployment default/peekcart', { category: 'storage' }),
    hop('kube-apiserver', 'kubectl', 'response', '201 Created'),
    hop('kube-apiserver', 'deployment-controller', 'watch', 'watch ADDED Deployment default/peekcart'),
    hop('deployment-controller', 'deployment-controller', 'decision', 'no ReplicaSet for the template: create one'),
    hop('deployment-controller', 'kube-apiserver', 'request', 'create ReplicaSet default/peekcart-7d4b9c'),
    hop('kube-apiserver', 'replicaset-controller', 'watch', 'watch ADDED ReplicaSet default/peekcart-7d4b9c'),
    hop('replicaset-controller', 'kube-apiserver', 'request', 'create Pod default/peekcart-7d4b9c-x2x9z'),
    hop('kube-apiserver', 'kube-scheduler', 'watch', 'watch ADDED Pod default/peekcart-7d4b9c-x2x9z'),
    hop('kube-scheduler', 'kube-apiserver', 'request', 'bind Pod default/peekcart-7d4b9c-x2x9z to node-10'),
    hop('kube-scheduler', 'kube-apiserver', 'request', 'bind Pod default/peekcart-7d4b9c-abcde to node-2'),
    hop('kube-apiserver', 'kubelet/node-10', 'watch', 'watch MODIFIED Pod'),
    hop('kubelet/node-2', 'containerd/node-2', 'request', 'PullImage ghcr.io/peekcart/peekcart:1.0.0'),
    hop('kubelet/node-2', 'kube-apiserver', 'request', 'create Event', { category: 'event' }),
  ];
}

describe('orderParticipants', () => {
  it('follows the seed: kubectl, apiserver, etcd, controllers, scheduler, then nodes in numeric order', () => {
    expect(
      orderParticipants([
        'kubelet/node-10',
        'kube-scheduler',
        'replicaset-controller',
        'etcd',
        'containerd/node-2',
        'kubelet/node-2',
        'deployment-controller',
        'kube-apiserver',
        'kubectl',
        'node-lifecycle-controller',
        'coredns',
      ]),
    ).toEqual([
      'kubectl',
      'kube-apiserver',
      'etcd',
      'deployment-controller',
      'replicaset-controller',
      'node-lifecycle-controller',
      'kube-scheduler',
      'kubelet/node-2',
      'containerd/node-2',
      'kubelet/node-10',
      'coredns',
    ]);
  });

  it('puts unknown clients after kubectl and unknown controllers after the known ones', () => {
    expect(orderParticipants(['zz-controller', 'my-client', 'kubectl', 'deployment-controller'])).toEqual([
      'kubectl',
      'my-client',
      'deployment-controller',
      'zz-controller',
    ]);
  });
});

describe('escapeMermaidText', () => {
  it('turns statement and markup characters into entity codes', () => {
    const s = escapeMermaidText('a;b#c<script>alert("x")</script>&%%{init}');
    expect(s).toBe('a#59;b#35;c#lt;script#gt;alert(#quot;x#quot;)#lt;/script#gt;#amp;#37;#37;#123;init#125;');
  });

  it('keeps one line and a bounded length', () => {
    expect(escapeMermaidText('line1\nline2\r\n\tx')).toBe('line1 line2 x');
    expect(escapeMermaidText('x'.repeat(500), 20)).toHaveLength(20);
    expect(escapeMermaidText('')).toBe(' ');
  });
});

describe('toMermaid', () => {
  it('draws the seed relay with participants in the seed order', () => {
    const text = toMermaid(visibleHops(seedRelay(), ALL));
    const names = [...text.matchAll(/^ {2}participant P\d+ as (.+)$/gm)].map((m) => m[1]);
    expect(names).toEqual([
      'kubectl',
      'kube-apiserver',
      'etcd',
      'deployment-controller',
      'replicaset-controller',
      'kube-scheduler',
      'kubelet/node-2',
      'containerd/node-2',
      'kubelet/node-10',
    ]);
    expect(text.startsWith('sequenceDiagram\n')).toBe(true);
  });

  it('uses request, response and dashed watch arrows, and notes for decisions', () => {
    const text = toMermaid(visibleHops(seedRelay(), ALL));
    expect(text).toContain('  P0->>P1: create Deployment default/peekcart\n');
    expect(text).toContain('  P1-->>P0: 201 Created\n');
    expect(text).toContain('  P1--)P3: watch ADDED Deployment default/peekcart\n');
    expect(text).toContain('  Note over P3: no ReplicaSet for the template: create one\n');
    expect(text).toContain('  Note over P1: authn kubectl · authz allow create deployments · admission\n');
  });

  it('escapes object names and summaries so they cannot break the diagram', () => {
    const text = toMermaid([hop('kubectl', 'kube-apiserver', 'request', 'create ConfigMap default/x;\nNote over P0: pwned %% <b>')]);
    const body = text.split('\n').slice(3).filter(Boolean);
    expect(body).toHaveLength(1);
    expect(body[0]).toBe('  P0->>P1: create ConfigMap default/x#59; Note over P0: pwned #37;#37; #lt;b#gt;');
  });
});

describe('visibleHops', () => {
  it('folds heartbeats, admission notes and Event writes by default', () => {
    const opts: SequenceOptions = { heartbeats: false, admission: false, events: false, window: 1000 };
    const shown = visibleHops(seedRelay(), opts);
    expect(shown.some((h) => h.category === 'heartbeat' || h.category === 'admission' || h.category === 'event')).toBe(false);
    expect(shown.map((h) => h.summary)).toContain('create Deployment default/peekcart');
  });

  it('keeps the last N visible hops, oldest first', () => {
    const hops = seedRelay();
    const shown = visibleHops(hops, { ...ALL, heartbeats: false, window: 3 });
    expect(shown.map((h) => h.seq)).toEqual(hops.slice(-3).map((h) => h.seq));
  });
});

describe('relayToMermaid', () => {
  it('draws every visible hop with the UI default folding', () => {
    const hops = seedRelay();
    const text = relayToMermaid(hops);
    const body = text.split('\n').filter((l) => l.startsWith('  ') && !l.startsWith('  participant'));
    expect(body).toHaveLength(hops.filter((h) => !h.category || h.category === 'storage').length);
    expect(text).not.toContain('update Lease');
  });
});

describe('visibleHops from a hop', () => {
  it('starts at fromSeq and keeps the first N visible hops', () => {
    const hops = seedRelay();
    const from = hops[5].seq;
    const shown = visibleHops(hops, { ...ALL, window: 3, fromSeq: from });
    expect(shown.map((h) => h.seq)).toEqual([from, from + 1, from + 2]);
  });
});

describe('renderSequence: reconciliation blocks', () => {
  it('wraps each reconciliation in a rect, shows its note, and maps every hop to one element', () => {
    const hops = [
      hop('kube-apiserver', 'replicaset-controller', 'watch', 'watch MODIFIED ReplicaSet default/web-1'),
      hop('replicaset-controller', 'replicaset-controller', 'decision', 'long summary', {
        reconcile: 4,
        note: 'desired 3 ≠ current 2 → create 1 Pod',
      }),
      hop('replicaset-controller', 'kube-apiserver', 'request', 'create Pod default/web-1-abcde', { reconcile: 4 }),
      hop('kube-apiserver', 'replicaset-controller', 'response', '201 Created', { reconcile: 4 }),
      hop('kube-scheduler', 'kube-scheduler', 'decision', 'node-2: score 187', {
        reconcile: 5,
        note: 'filtered 3/4 nodes → node-2 (score 187)',
      }),
    ];
    const r = renderSequence(hops);
    expect(r.text.split('\n').slice(4)).toEqual([
      '  P0--)P1: watch MODIFIED ReplicaSet default/web-1',
      '  rect rgba(66, 133, 244, 0.08)',
      '    Note over P1: desired 3 ≠ current 2 → create 1 Pod',
      '    P1->>P0: create Pod default/web-1-abcde',
      '    P0-->>P1: 201 Created',
      '  end',
      '  rect rgba(52, 168, 83, 0.08)',
      '    Note over P2: filtered 3/4 nodes → node-2 (score 187)',
      '  end',
      '',
    ]);
    expect(r.messages).toEqual([hops[0].seq, hops[2].seq, hops[3].seq]);
    expect(r.notes).toEqual([hops[1].seq, hops[4].seq]);
  });
});

/** Names a manifest may carry (or try to): each must stay one message of plain text. */
const HOSTILE: { name: string; text: string }[] = [
  { name: 'semicolon ends a statement', text: 'web;Note over P0: pwned' },
  { name: 'hash starts an entity', text: 'web#59;#lt;b#gt;' },
  { name: 'script tag', text: '<script>alert(1)</script>' },
  { name: 'arrow', text: 'a-->>b: x' },
  { name: 'comment and directive', text: '%%{init: {"theme":"dark"}}%% x' },
  { name: 'newline then a statement', text: 'web\nparticipant Evil\nEvil->>P0: hi' },
  { name: 'CRLF, tab, NUL, U+2028', text: 'a\r\n\tb\u0000c\u2028d' },
  { name: 'end keyword after a newline', text: 'x\nend\nend' },
  { name: 'unicode', text: '한국어-ñ-😀-ü' },
  { name: 'html entity', text: '&lt;img src=x onerror=alert(1)&gt;' },
  { name: 'braces and quotes', text: '{"a":1} \'b\'' },
];

describe('hostile names through the real Mermaid parser', () => {
  it.each(HOSTILE)('$name stays one message of text', async ({ text }) => {
    const { default: mermaid } = await import('mermaid');
    const hops = [
      hop('kubectl', 'kube-apiserver', 'request', `create ConfigMap default/${text}`),
      hop('x-controller', 'x-controller', 'decision', 's', { reconcile: 9, note: `note ${text}` }),
    ];
    const r = renderSequence(hops);
    await expect(mermaid.parse(r.text)).resolves.toMatchObject({ diagramType: 'sequence' });
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(r.text);
    const db = diagram.db as unknown as {
      getActors(): Map<string, unknown>;
      getMessages(): { from?: string; to?: string; message: string; type: number }[];
    };
    expect([...db.getActors().keys()]).toEqual(['P0', 'P1', 'P2']);
    // 22/23 are the rect's start and end; the rest: exactly one message and one note
    const drawn = db.getMessages().filter((m) => m.type !== 22 && m.type !== 23);
    expect(drawn.map((m) => `${m.from}>${m.to}:${m.type}`)).toEqual(['P0>P1:0', 'P2>P2:2']);
    // Mermaid keeps entity codes as placeholders and decodes them only when drawing text
    const decode = (t: string) =>
      t
        .replace(/ﬂ°°(\d+)¶ß/g, (_, n: string) => String.fromCharCode(Number(n)))
        .replace(/ﬂ°(lt|gt|amp|quot)¶ß/g, (_, n: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"' })[n]!);
    // eslint-disable-next-line no-control-regex
    const oneLine = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
    for (const m of drawn) expect(m.message).not.toMatch(/[<>;\n\r]|%%/);
    expect(drawn.map((m) => decode(m.message))).toEqual([`create ConfigMap default/${oneLine}`, `note ${oneLine}`]);
  });
});

describe('renderSequence with noWrap', () => {
  const hops = () => [
    hop('kubectl', 'kube-apiserver', 'request', 'create Pod default/web'),
    hop('kube-apiserver', 'kubectl', 'response', 'wrap: 201 Created'),
    hop('x-controller', 'x-controller', 'decision', 's', { reconcile: 3, note: 'desired 3 ≠ current 2 → create 1 Pod' }),
  ];
  type Db = {
    getMessages(): { message: string; type: number; wrap?: boolean }[];
    getActors(): Map<string, { description: string }>;
    autoWrap(): boolean;
  };
  it.each([
    // autoWrap (a deep copy of Mermaid's config each) runs for the rect's start and end (2), and for each
    // participant (3) and each message or note (3) without its own prefix
    {
      name: 'without the prefix',
      noWrap: false,
      autoWraps: 2 + 3 + 3,
      wraps: [false, true, false],
      texts: ['create Pod default/web', '201 Created', 'desired 3 ≠ current 2 → create 1 Pod'],
    },
    {
      name: 'with the prefix',
      noWrap: true,
      autoWraps: 2,
      wraps: [false, false, false],
      texts: ['create Pod default/web', 'wrap: 201 Created', 'desired 3 ≠ current 2 → create 1 Pod'],
    },
  ])('$name: $autoWraps config look-ups, statements drawn as $texts', async ({ noWrap, autoWraps, wraps, texts }) => {
    const { default: mermaid } = await import('mermaid');
    const r = renderSequence(hops(), 160, true, noWrap);
    await mermaid.parse(r.text);
    const proto = Object.getPrototypeOf((await mermaid.mermaidAPI.getDiagramFromText(r.text)).db as Db) as Db;
    const original = proto.autoWrap;
    let calls = 0;
    proto.autoWrap = function (this: Db) {
      calls++;
      return original.call(this);
    };
    try {
      const db = (await mermaid.mermaidAPI.getDiagramFromText(r.text)).db as unknown as Db;
      const drawn = db.getMessages().filter((m) => m.type !== 22 && m.type !== 23);
      expect(drawn.map((m) => m.message.trim())).toEqual(texts);
      expect(drawn.map((m) => m.wrap)).toEqual(wraps);
      expect([...db.getActors().values()].map((a) => a.description)).toEqual(['kubectl', 'kube-apiserver', 'x-controller']);
      expect(calls).toBe(autoWraps);
    } finally {
      proto.autoWrap = original;
    }
  });
});

describe('renderSequence: cutting long text', () => {
  const nlc = 'node-1: no Lease renewal observed for 55 s (> node-monitor-grace-period 50 s) → NotReady';
  const summary = 'watch MODIFIED Pod default/web-95547d88-2cp5t (resourceVersion 18211)';
  it.each([
    { name: 'a message is cut at messageMax', kind: 'watch' as const, text: summary, max: 40, drawn: `${summary.slice(0, 39)}…` },
    { name: 'a note is kept whole up to NOTE_MAX', kind: 'decision' as const, text: nlc, max: 40, drawn: nlc.replace('>', '#gt;') },
    {
      name: 'a note is cut beyond NOTE_MAX',
      kind: 'decision' as const,
      text: 'x'.repeat(NOTE_MAX + 5),
      max: 40,
      drawn: `${'x'.repeat(NOTE_MAX - 1)}…`,
    },
  ])('$name', ({ kind, text, max, drawn }) => {
    const h =
      kind === 'decision'
        ? hop('node-lifecycle-controller', 'node-lifecycle-controller', kind, 's', { reconcile: 1, note: text })
        : hop('kube-apiserver', 'kubelet/node-1', kind, text);
    const line = renderSequence([h], max)
      .text.trim()
      .split('\n')
      .at(-1 - (kind === 'decision' ? 1 : 0))!;
    expect(line.slice(line.indexOf(': ') + 2)).toBe(drawn);
  });
});

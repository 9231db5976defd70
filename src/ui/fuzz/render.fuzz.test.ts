/**
 * Fuzz of user text in the UI (issue 8 §5): graph cards (Pod, Deployment/ReplicaSet) and the
 * inspector's tabs (YAML, Events, Owners) rendered with react-dom/server, objects carrying
 * hostile names, namespaces, labels, annotations, images and event messages. Property: the
 * markup's skeleton (every tag and attribute name, in order) equals the skeleton of the same
 * object with plain text, so no markup is injected, and nothing throws.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ReactFlowProvider } from '@xyflow/react';
import { kubeStore } from '../store/store';
import type { KObject, StoredObject } from '../store/types';
import { PodCard } from '../graph/cards/PodCard';
import { WorkloadCard } from '../graph/cards/WorkloadCard';
import { YamlTab } from '../inspector/YamlTab';
import { EventsTab } from '../inspector/EventsTab';
import { OwnersTab } from '../inspector/OwnersTab';
import { hostileText } from './hostile-text';

interface Texts {
  name: string;
  ns: string;
  label: string;
  annotation: string;
  image: string;
  message: string;
  owner: string;
}

function objects(t: Texts): { pod: StoredObject; rs: StoredObject; event: KObject } {
  const podKey = `Pod/${t.ns}/${t.name}`;
  const rsKey = `ReplicaSet/${t.ns}/${t.owner}`;
  const pod: KObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: t.name,
      namespace: t.ns,
      uid: 'u1',
      labels: { [t.label]: t.label },
      annotations: { [t.annotation]: t.annotation },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: t.owner, uid: 'u2', controller: true }],
    },
    spec: { nodeName: t.label, containers: [{ name: t.name, image: t.image }] },
    status: { phase: 'Running', podIP: '10.244.1.2' },
  } as KObject;
  const rs: KObject = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: t.owner, namespace: t.ns, uid: 'u2', labels: { [t.label]: t.annotation } },
    spec: { replicas: 1 },
    status: { readyReplicas: 1 },
  } as KObject;
  const event: KObject = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${t.name}.1`, namespace: t.ns, uid: 'u3' },
    involvedObject: { kind: 'Pod', name: t.name, namespace: t.ns, uid: 'u1' },
    reason: t.label,
    message: t.message,
    type: 'Normal',
    source: { component: t.annotation },
    firstTimestamp: '2026-01-01T00:00:00Z',
    lastTimestamp: '2026-01-01T00:00:05Z',
    count: 1,
  } as KObject;
  const row = (o: KObject, status: string) => ({
    kind: o.kind,
    namespace: t.ns,
    name: o.metadata.name,
    status,
    ready: '1/1',
    columns: { STATUS: status },
  });
  return {
    pod: { key: podKey, resource: 'pods', object: pod, row: row(pod, t.message), controllers: [t.annotation] },
    rs: { key: rsKey, resource: 'replicasets.apps', object: rs, row: row(rs, ''), controllers: ['replicaset-controller'] },
    event,
  };
}

// react-dom/server renders zustand's server snapshot, which is the store's initial state;
// point it at the current state so the views show the objects under test.
(kubeStore as { getInitialState: () => unknown }).getInitialState = () => kubeStore.getState();

/** Renders every fuzzed view for the given texts; one markup string per view. */
function renderAll(t: Texts): Record<string, string> {
  const { pod, rs, event } = objects(t);
  kubeStore.setState({
    objects: new Map([
      [pod.key, pod],
      [rs.key, rs],
    ]),
    events: new Map([[`Event/${t.ns}/${event.metadata.name}`, event]]),
  });
  const flow = (C: ComponentType<never>, key: string) =>
    renderToStaticMarkup(createElement(ReactFlowProvider, null, createElement(C, { id: key, data: { key } } as never)));
  return {
    pod: flow(PodCard as ComponentType<never>, pod.key),
    workload: flow(WorkloadCard as ComponentType<never>, rs.key),
    yaml: renderToStaticMarkup(createElement(YamlTab, { obj: pod.object })),
    events: renderToStaticMarkup(createElement(EventsTab, { obj: pod.object })),
    owners: renderToStaticMarkup(createElement(OwnersTab, { stored: pod })),
  };
}

/**
 * Tag names and attribute names in order: what markup injection would change. React escapes
 * `<`, `>` and `"` in text and attribute values, so every raw `<…>` is a real tag.
 */
function skeleton(html: string): string[] {
  return (html.match(/<[^>]*>/g) ?? []).map((tag) => tag.replace(/="[^"]*"/g, '').replace(/\s+/g, ' '));
}

const plain: Texts = {
  name: 'web-1',
  ns: 'default',
  label: 'app',
  annotation: 'note',
  image: 'nginx:1.27',
  message: 'Started container',
  owner: 'web',
};

describe('hostile user text in the graph cards and the inspector', () => {
  it('renders the plain object (the baseline shows every view)', () => {
    const out = renderAll(plain);
    expect(out.pod).toContain('data-testid="pod-card"');
    expect(out.workload).toContain('data-testid="workload-card"');
    expect(out.yaml).toContain('&quot;name&quot;: &quot;web-1&quot;'); // JSON until the lazy yaml chunk loads
    expect(out.events).toContain('Started container');
    expect(out.owners).toContain('replicaset/web');
  });

  it('injects no markup, whatever the names, labels, annotations and messages', () => {
    const base = Object.fromEntries(Object.entries(renderAll(plain)).map(([k, v]) => [k, skeleton(v)]));
    fc.assert(
      fc.property(
        fc.record({
          name: hostileText,
          ns: hostileText,
          label: hostileText,
          annotation: hostileText,
          image: hostileText,
          message: hostileText,
          owner: hostileText,
        }),
        (t) => {
          const out = renderAll(t);
          for (const [view, html] of Object.entries(out)) {
            expect(skeleton(html), `${view}: ${html.slice(0, 400)}`).toEqual(base[view]);
            expect(html).not.toMatch(/<(script|img|svg|iframe)\b/i);
          }
        },
      ),
      { seed: 17, numRuns: 200 },
    );
  });

  it.each([
    {
      name: 'script tag in the Pod name',
      field: 'name',
      value: '<script>alert(1)</script>',
      escaped: '&lt;script&gt;alert(1)&lt;/script&gt;',
    },
    {
      name: 'attribute break-out in the event message',
      field: 'message',
      value: '"><svg onload=alert(1)>',
      escaped: '&quot;&gt;&lt;svg onload=alert(1)&gt;',
    },
  ])('$name is shown as text', ({ field, value, escaped }) => {
    const out = renderAll({ ...plain, [field]: value });
    expect(Object.values(out).join('')).toContain(escaped);
  });
});

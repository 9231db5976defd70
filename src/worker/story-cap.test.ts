/**
 * The story of a large action through the relay's caps (issue 15): a Deployment of 300
 * replicas records ~30,000 hops; the worker's batches (MAX_HOPS_PER_BATCH) and the page's
 * RELAY_CAP keep its first hops (cluster/relay/sequence/story-keep.ts), so the page's story
 * view still starts at kubectl.
 */
import { describe, expect, it } from 'vitest';
import SEED_MANIFEST from '../scenarios/peekcart.yaml?raw';
import { testHost } from './test-host';
import { MAX_HOPS_PER_BATCH } from './protocol';
import { createKubeStore } from '../ui/store/store';
import { reduceBatch } from '../ui/store/reducers';
import { RELAY_CAP } from '../ui/store/slices/relay';
import { storyHops } from '../cluster/relay/sequence/story';
import { STORY_HEAD_KEEP } from '../cluster/relay/sequence/story-keep';
import { actionWindow, DEFAULT_SEQUENCE_VIEW } from '../cluster/relay/sequence/window';
import { DEFAULT_SEQUENCE_OPTIONS } from '../cluster/relay/sequence/to-mermaid';

const BIG = `apiVersion: apps/v1
kind: Deployment
metadata: {name: big, namespace: default}
spec:
  replicas: 300
  selector: {matchLabels: {app: big}}
  template:
    metadata: {labels: {app: big}}
    spec: {containers: [{name: c, image: nginx:1.27}]}
`;

describe('ClusterHost: the story of a 300-replica apply survives the relay caps', () => {
  it('the batches the page folds tell it from kubectl → kube-apiserver on, and say how many hops were not kept', () => {
    const { host, run, batches, last } = testHost();
    run(200);
    host.apply(BIG);
    // until quiet: the story gains no hop over 5 s of wall time
    let count = -1;
    for (let i = 0; i < 40 && last().storyCount !== count; i++) {
      count = last().storyCount ?? -1;
      run(5_000);
    }
    expect(last().storyCount).toBe(count);
    const story = last().story!;
    expect(story.label).toBe('apply');
    expect(count).toBeGreaterThan(RELAY_CAP + MAX_HOPS_PER_BATCH);
    expect(Math.max(...batches.map((b) => b.hops.length))).toBeLessThanOrEqual(MAX_HOPS_PER_BATCH);

    const page = createKubeStore();
    for (const b of batches) page.setState((s) => reduceBatch(s, b));
    const s = page.getState();
    expect(s.hops.length).toBe(RELAY_CAP);
    expect(s.storyCount).toBe(count);
    const told = storyHops(s.hops, story);
    expect(told).toHaveLength(STORY_HEAD_KEEP);
    expect(told[0]).toMatchObject({ seq: story.seq, from: 'kubectl', to: 'kube-apiserver', summary: 'get Deployment default/big' });

    const drawn = actionWindow(s.hops, story, DEFAULT_SEQUENCE_OPTIONS, DEFAULT_SEQUENCE_VIEW);
    expect(drawn.slice(0, 3).map((h) => `${h.from} → ${h.to}: ${h.summary}`)).toEqual([
      'kubectl → kube-apiserver: get Deployment default/big',
      'kube-apiserver → kubectl: 404 NotFound',
      'kubectl → kube-apiserver: create Deployment default/big',
    ]);
    // the page draws the story's start as the whole relay would
    const whole = (host as unknown as { cluster: { relay: { since(n: number): typeof s.hops } } }).cluster.relay.since(0);
    expect(drawn.map((h) => h.summary)).toEqual(
      actionWindow(whole, story, DEFAULT_SEQUENCE_OPTIONS, DEFAULT_SEQUENCE_VIEW).map((h) => h.summary),
    );
    expect(count - told.length).toBeGreaterThan(20_000);
  });

  it("the seed's apply fits: every batch whole, the page holds every hop of its story, none reported not kept", () => {
    const { host, run, batches, last } = testHost();
    run(200);
    host.apply(SEED_MANIFEST);
    run(20_000);
    const story = last().story!;
    const page = createKubeStore();
    for (const b of batches) page.setState((s) => reduceBatch(s, b));
    const s = page.getState();
    const whole = (host as unknown as { cluster: { relay: { since(n: number): typeof s.hops } } }).cluster.relay.since(0);
    expect(s.hops.map((h) => h.seq)).toEqual(whole.map((h) => h.seq));
    expect(storyHops(s.hops, story)).toHaveLength(s.storyCount!);
    expect(s.storyCount).toBe(storyHops(whole, story).length);
    expect(s.storyCount).toBeGreaterThan(100);
  });
});

/**
 * internBatch: the repeated strings of a batch's Events and hops become one pooled copy;
 * values (and so everything the page shows) are unchanged.
 */
import { describe, expect, it } from 'vitest';
import type { TickBatch } from '../../worker/protocol';
import { internBatch, poolSize } from './intern-batch';

/** A fresh copy of `s` (not the literal's string): what a structured clone hands the page. */
const copy = (s: string) => [...s].join('');

function batch(i: number): TickBatch {
  const event = {
    apiVersion: copy('v1'),
    kind: copy('Event'),
    metadata: { name: copy(`p${i}.18867`), namespace: copy('default'), uid: copy(`u${i}`), resourceVersion: copy(`${i}`) },
    involvedObject: { kind: copy('Pod'), namespace: copy('default'), name: copy(`p${i}`), uid: copy(`pu${i}`) },
    reason: copy('FailedScheduling'),
    message: copy('0/4 nodes are available: 3 Too many pods.'),
    count: 1,
  };
  const hop = {
    seq: i,
    time: 0,
    from: copy('kube-scheduler'),
    to: copy('kube-apiserver'),
    kind: copy('request'),
    verb: copy('create'),
    name: copy(`p${i}`),
    summary: copy('event Warning FailedScheduling'),
    cause: null,
  };
  return {
    events: [{ type: 'ADDED', resource: 'events', key: `Event/default/p${i}.18867`, object: event, row: null }],
    hops: [hop],
    changes: [],
  } as unknown as TickBatch;
}

describe('internBatch', () => {
  it('pools the repeated strings of Events (with their metadata and involvedObject) and hops, not names, uids or resourceVersions; values unchanged', () => {
    const a = batch(1);
    const b = batch(2);
    const before = JSON.stringify([a, b]);
    const n0 = poolSize();
    internBatch(a);
    // v1, Event, default, Pod, FailedScheduling, the message; kube-scheduler, kube-apiserver, request, create, the summary
    expect(poolSize() - n0).toBe(11);
    internBatch(b);
    expect(poolSize() - n0).toBe(11);
    expect(JSON.stringify([a, b])).toBe(before);
  });
});

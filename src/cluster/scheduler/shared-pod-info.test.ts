import { describe, expect, it } from 'vitest';
import { SimClock } from '../sim/clock';
import { newPodInfo } from './node-info';
import { SchedulingQueue } from './scheduling-queue';
import { makePod } from './scheduler.fixture';

describe('the scheduler shares what equal Pods derive alike (memory only)', () => {
  it.each([
    { name: 'equal requests → one frozen Resource', a: { cpu: '100m', memory: '64Mi' }, b: { cpu: '100m', memory: '64Mi' }, shared: true },
    { name: 'other cpu → two Resources', a: { cpu: '100m', memory: '64Mi' }, b: { cpu: '200m', memory: '64Mi' }, shared: false },
    { name: 'other memory → two Resources', a: { cpu: '100m', memory: '64Mi' }, b: { cpu: '100m', memory: '65Mi' }, shared: false },
  ])('$name', ({ a, b, shared }) => {
    const pa = newPodInfo(makePod({ name: 'a', ...a }));
    const pb = newPodInfo(makePod({ name: 'b', ...b }));
    expect(pa.requests === pb.requests).toBe(shared);
    expect(pa.nonZeroRequests === pb.nonZeroRequests).toBe(shared);
    expect(Object.isFrozen(pa.requests) && Object.isFrozen(pa.requests.scalar)).toBe(true);
    expect(pa.requests.milliCPU).toBe(100);
    expect(pa.requests.memory).toBe(64 * 1024 * 1024);
    // no host ports: one frozen empty list
    expect(pa.hostPorts).toBe(pb.hostPorts);
    expect(Object.isFrozen(pa.hostPorts)).toBe(true);
  });

  it("a one-container Pod's requests come from its frozen resources object's first result; others are computed each time", () => {
    const frozen = Object.freeze({ requests: Object.freeze({ cpu: '250m', memory: '32Mi' }) });
    const withResources = (name: string, resources: object, extra: object = {}) => {
      const p = makePod({ name });
      p.spec!.containers[0].resources = resources as never;
      Object.assign(p.spec!, extra);
      return newPodInfo(p);
    };
    const a = withResources('a', frozen);
    const b = withResources('b', frozen);
    expect(b.requests).toBe(a.requests);
    expect(b.nonZeroRequests).toBe(a.nonZeroRequests);
    expect([a.requests.milliCPU, a.requests.memory]).toEqual([250, 32 * 1024 * 1024]);
    // an overhead or an init container changes the sum: not taken from the memo
    const c = withResources('c', frozen, { overhead: { cpu: '10m' } });
    expect(c.requests.milliCPU).toBe(260);
    const d = withResources('d', frozen, { initContainers: [{ name: 'init', image: 'busybox', resources: { requests: { cpu: '1' } } }] });
    expect(d.requests.milliCPU).toBe(1000);
    // an unfrozen resources object (a Pod not from the store) is read as it is now
    const open = { requests: { cpu: '100m' } as Record<string, string> };
    expect(withResources('e', open).requests.milliCPU).toBe(100);
    open.requests.cpu = '300m';
    expect(withResources('f', open).requests.milliCPU).toBe(300);
  });

  it('pods rejected by the same plugins in the same order share one Set; another order is another Set', () => {
    const q = new SchedulingQueue(new SimClock(0));
    for (const n of ['a', 'b', 'c']) q.add(newPodInfo(makePod({ name: n })), null);
    const [a, b, c] = [q.pop()!, q.pop()!, q.pop()!];
    expect(a.unschedulablePlugins).toBe(b.unschedulablePlugins); // both not yet rejected
    q.addUnschedulableIfNotPresent(a, new Set(['NodeResourcesFit', 'TaintToleration']));
    q.addUnschedulableIfNotPresent(b, new Set(['NodeResourcesFit', 'TaintToleration']));
    q.addUnschedulableIfNotPresent(c, new Set(['TaintToleration', 'NodeResourcesFit']));
    expect(a.unschedulablePlugins).toBe(b.unschedulablePlugins);
    expect(a.unschedulablePlugins).not.toBe(c.unschedulablePlugins);
    expect([...c.unschedulablePlugins]).toEqual(['TaintToleration', 'NodeResourcesFit']);
    expect(['a', 'b', 'c'].map((n) => q.locate(`default/${n}`))).toEqual(['unschedulable', 'unschedulable', 'unschedulable']);
  });
});

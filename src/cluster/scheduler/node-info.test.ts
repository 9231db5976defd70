/**
 * NodeInfo's flat counters (allocatable, requested and non-zero requested, read by
 * NodeResourcesFit) follow the pods added and removed, its clone is independent, and
 * imageSize's inline answer follows setNode's new image list.
 */
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../api/objects';
import { NodeInfo, newPodInfo } from './node-info';

function node(images: { names: string[]; sizeBytes: number }[]): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n1' },
    status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '10Gi', 'example.com/gpu': '2' }, images },
  };
}

function pod(name: string, requests: Record<string, string>): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: name },
    spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests } }] },
  };
}

describe('NodeInfo', () => {
  it('keeps the flat resource counters equal to the sum of its pods', () => {
    const ni = new NodeInfo(node([]));
    expect([ni.allocMilliCPU, ni.allocMemory, ni.allocEphemeralStorage, ni.allowedPodNumber]).toEqual([
      4000,
      8 * 2 ** 30,
      10 * 2 ** 30,
      110,
    ]);
    ni.addPod(newPodInfo(pod('a', { cpu: '250m', memory: '1Gi', 'example.com/gpu': '1' })));
    ni.addPod(newPodInfo(pod('b', { 'ephemeral-storage': '1Gi' })));
    expect([ni.reqMilliCPU, ni.reqMemory, ni.reqEphemeralStorage, ni.reqScalar['example.com/gpu']]).toEqual([250, 1 << 30, 1 << 30, 1]);
    // b has no cpu or memory request: 100m and 200Mi for scoring
    expect([ni.nonZeroMilliCPU, ni.nonZeroMemory]).toEqual([350, (1 << 30) + 200 * 1024 * 1024]);
    const c = ni.clone();
    ni.removePod('a');
    expect([ni.reqMilliCPU, ni.reqMemory, ni.reqScalar['example.com/gpu'], ni.nonZeroMilliCPU]).toEqual([0, 0, 0, 100]);
    expect([c.reqMilliCPU, c.reqScalar['example.com/gpu'], c.numPods]).toEqual([250, 1, 2]);
  });

  it('answers imageSize from the current image list after setNode', () => {
    const ni = new NodeInfo(node([{ names: ['nginx:1.27'], sizeBytes: 100 }]));
    expect(ni.imageSize('nginx:1.27')).toBe(100);
    expect(ni.imageSize('nginx:1.27')).toBe(100);
    expect(ni.imageSize('redis:latest')).toBeUndefined();
    ni.setNode(node([{ names: ['redis'], sizeBytes: 0 }]));
    expect(ni.numImages).toBe(1);
    expect(ni.imageSize('redis:latest')).toBe(0);
    expect(ni.imageSize('nginx:1.27')).toBeUndefined();
  });
});

/**
 * Persistence by replay (session.ts) and the dry-run sandbox: same seed + same log ⇒ same
 * cluster; a dry run or a diff changes nothing, not even the RNG or the relay counters.
 */
import { describe, expect, it } from 'vitest';
import { ClusterHost } from './cluster-api';
import type { TickBatch } from './protocol';
import SEED_MANIFEST from '../scenarios/peekcart.yaml?raw';
import { testHost } from './test-host';

const setup = () => testHost();

/** What the UI would see after a reset batch: every object, the relay, the time. */
function picture(h: ClusterHost) {
  let batch: TickBatch | null = null;
  h.subscribe((b) => (batch = b));
  const b = batch! as TickBatch;
  return {
    simMs: b.simMs,
    objects: b.changes.map((c) => [c.key, c.object.metadata.resourceVersion, c.object.metadata.uid, c.row?.status]),
    hops: b.hops.map((h) => `${h.seq} ${h.time} ${h.from}>${h.to} ${h.summary}`),
  };
}

const SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: np
spec:
  type: NodePort
  selector:
    app: x
  ports:
    - port: 80
`;

describe('session log replay', () => {
  it('restores the same objects, uids, relay and time (same seed ⇒ same state)', () => {
    const a = setup();
    a.host.apply(SEED_MANIFEST);
    a.host.setSpeed(10);
    a.run(2_000);
    a.host.killNode('node-2');
    a.run(1_000);
    expect(() => a.host.deletePod('default', 'nope')).toThrow('not found'); // replayed the same way
    a.host.step();
    a.host.addNode();
    a.host.play();
    a.run(1_500);
    const log = structuredClone(a.host.exportState());
    expect(log.steps.map((x) => x.step.kind)).toEqual(['apply', 'killNode', 'deletePod', 'advance', 'addNode']);

    const b = setup();
    b.host.importState(log);
    expect(picture(b.host)).toEqual(picture(a.host));
    a.host.dispose();
    b.host.dispose();
  });

  it('rejects what is not a session', () => {
    const { host } = setup();
    expect(() => host.importState({ nope: 1 } as never)).toThrow('not a kube-relay session');
  });
});

describe('dry run and diff change nothing', () => {
  it('a server dry run (Services allocate IPs and ports) leaves the next real apply identical', () => {
    const a = setup();
    const b = setup();
    const dry = a.host.dryRun(`${SEED_MANIFEST}\n---\n${SERVICE}`);
    expect(dry.results.map((r) => `${r.object} ${r.action}`)).toEqual([
      'deployment.apps/peekcart created',
      'service/peekcart created',
      'service/np created',
    ]);
    a.host.diff(SERVICE);
    expect(a.host.exportState().steps).toEqual([]);
    a.host.apply(SERVICE);
    b.host.apply(SERVICE);
    a.run(500);
    b.run(500);
    expect(picture(a.host)).toEqual(picture(b.host));
  });

  it("marks a selector mismatch on the labels: line under template.metadata, with kubectl's text", () => {
    const { host } = setup();
    const text = SEED_MANIFEST.replace(/(template:\n\s+metadata:\n\s+labels:\n\s+app: )peekcart/, '$1typo');
    expect(text).not.toBe(SEED_MANIFEST);
    const { results, markers } = host.dryRun(text);
    expect(results[0].action).toBe('error');
    const lines = text.split('\n');
    expect(markers).toHaveLength(1);
    const m = markers[0];
    expect(m.message).toBe(results[0].message);
    expect(m.message).toContain('`selector` does not match template `labels`');
    expect(lines[m.line - 1]).toMatch(/^\s+labels:$/);
    expect(lines[m.line - 2]).toMatch(/^\s+metadata:$/);
    expect(lines[m.line - 3]).toMatch(/^\s+template:$/);
  });
});

describe('kubectl diff', () => {
  it('prints a unified diff between LIVE and MERGED, as kubectl diff does', () => {
    const { host } = setup();
    host.apply(SEED_MANIFEST);
    const changed = SEED_MANIFEST.replace(/replicas: \d+/, 'replicas: 5');
    const { diff, stderr } = host.diff(changed);
    expect(stderr).toBe('');
    const lines = diff.split('\n');
    expect(lines[0]).toMatch(
      /^diff -u -N \/tmp\/LIVE-\d+\/apps\.v1\.Deployment\.default\.peekcart \/tmp\/MERGED-\d+\/apps\.v1\.Deployment\.default\.peekcart$/,
    );
    expect(lines[1]).toMatch(/^--- \/tmp\/LIVE-\d+\/apps\.v1\.Deployment\.default\.peekcart\t2026-01-01 /);
    expect(lines[2]).toMatch(/^\+\+\+ \/tmp\/MERGED-/);
    expect(lines).toContain('+  replicas: 5');
    expect(lines.some((l) => /^- {2}replicas: \d+$/.test(l))).toBe(true);
    expect(lines).toContain('-  generation: 1');
    expect(lines).toContain('+  generation: 2');
    expect(diff).not.toContain('managedFields');
    expect(diff).not.toContain('v1.Service'); // unchanged objects print nothing
    expect(host.diff(SEED_MANIFEST).diff).toBe('');
  });
});

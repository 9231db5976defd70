import { describe, expect, it } from 'vitest';
import { sortEvents } from './events';
import type { KObject } from '../store/types';

const ev = (name: string, last: string): KObject =>
  ({ apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: 'default' }, lastTimestamp: last }) as KObject;

describe('sortEvents', () => {
  // the kubelet writes Pulling, Pulled, Created, Started within one second: names carry the creation nanoseconds
  const events = [
    ev('web.18a0000000000003', '2026-01-01T00:00:52Z'), // Created
    ev('web.18a0000000000001', '2026-01-01T00:00:49Z'), // Scheduled
    ev('web.18a0000000000004', '2026-01-01T00:00:52Z'), // Started
    ev('web.18a0000000000002', '2026-01-01T00:00:52Z'), // Pulled
  ];
  const cases: { name: string; order: 'oldest' | 'newest'; want: string[] }[] = [
    { name: 'oldest first (kubectl describe), ties in creation order', order: 'oldest', want: ['1', '2', '3', '4'] },
    { name: 'newest first (the Events panel), ties reversed', order: 'newest', want: ['4', '3', '2', '1'] },
  ];
  it.each(cases)('$name', ({ order, want }) => {
    expect(sortEvents(events, order).map((e) => e.metadata.name.slice(-1))).toEqual(want);
  });
});

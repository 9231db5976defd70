import { describe, expect, it } from 'vitest';
import { BatchGate } from './back-pressure';
import type { TickBatch } from './protocol';

const batch = (simMs: number) => ({ simMs }) as TickBatch;

/** A receiver whose acknowledgements the test releases by hand. */
function receiver() {
  const got: number[] = [];
  const acks: (() => void)[] = [];
  const send = (b: TickBatch) => {
    got.push(b.simMs);
    return new Promise<void>((r) => acks.push(r));
  };
  return { got, acks, send };
}

describe('BatchGate', () => {
  it('sends one batch, refuses (without building) until acknowledged, then asks for a flush once', async () => {
    const r = receiver();
    let ready = 0;
    let built = 0;
    const gate = new BatchGate(r.send, () => ready++);
    const make = (ms: number) => () => (built++, batch(ms));
    expect(gate.offer(make(1))).toBe(true);
    expect(gate.busy).toBe(true);
    expect(gate.offer(make(2))).toBe(false);
    expect(gate.offer(make(3))).toBe(false);
    expect([r.got, built, ready]).toEqual([[1], 1, 0]);
    r.acks[0]();
    await Promise.resolve();
    expect([gate.busy, ready]).toEqual([false, 1]);
    expect(gate.offer(make(4))).toBe(true);
    expect(r.got).toEqual([1, 4]);
  });

  it('no refusal meanwhile: the acknowledgement asks for nothing, unless `again` was called', async () => {
    const r = receiver();
    let ready = 0;
    const gate = new BatchGate(r.send, () => ready++);
    gate.offer(() => batch(1));
    r.acks[0]();
    await Promise.resolve();
    expect(ready).toBe(0);
    gate.offer(() => batch(2));
    gate.again();
    r.acks[1]();
    await Promise.resolve();
    expect(ready).toBe(1);
  });

  it('a rejected delivery counts as acknowledged; a null batch sends nothing; a synchronous receiver is never gated', async () => {
    let ready = 0;
    const gate = new BatchGate(
      () => Promise.reject(new Error('gone')),
      () => ready++,
    );
    gate.offer(() => batch(1));
    gate.offer(() => batch(2));
    await new Promise((r) => setTimeout(r, 0));
    expect([gate.busy, ready]).toEqual([false, 1]);

    const got: number[] = [];
    const sync = new BatchGate(
      (b) => void got.push(b.simMs),
      () => ready++,
    );
    expect(sync.offer(() => null)).toBe(false);
    expect([sync.offer(() => batch(1)), sync.offer(() => batch(2)), sync.busy]).toEqual([true, true, false]);
    expect(got).toEqual([1, 2]);
  });
});

import { describe, expect, it } from 'vitest';
import { createWatchDecoder, readWatchStream, type WatchEventJSON } from './watch-reader';

const enc = new TextEncoder();
const line = (type: string, name: string) => `${JSON.stringify({ type, object: { kind: 'Pod', metadata: { name } } })}\n`;
const names = (evs: WatchEventJSON[]) => evs.map((e) => `${e.type} ${e.object.metadata.name}`);

describe('createWatchDecoder', () => {
  const whole = line('ADDED', 'web-1') + line('MODIFIED', 'Ünïcødé-파드') + line('DELETED', 'web-1');
  const bytes = enc.encode(whole);
  const cases: { name: string; chunks: Uint8Array[] }[] = [
    { name: 'one chunk with three events', chunks: [bytes] },
    { name: 'one byte per chunk (splits UTF-8 characters)', chunks: [...bytes].map((b) => Uint8Array.of(b)) },
    { name: 'split right after each newline', chunks: whole.split(/(?<=\n)/).map((s) => enc.encode(s)) },
    { name: 'split in the middle of the second object', chunks: [bytes.slice(0, 60), bytes.slice(60)] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const d = createWatchDecoder();
      const out = c.chunks.flatMap((ch) => d.push(ch));
      out.push(...d.end());
      expect(names(out)).toEqual(['ADDED web-1', 'MODIFIED Ünïcødé-파드', 'DELETED web-1']);
    });
  }
  it('keeps a partial line until its newline arrives', () => {
    const d = createWatchDecoder();
    expect(d.push('{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n{"type":"MOD')).toHaveLength(1);
    expect(d.push('IFIED","object":{"metadata":{"name":"a"}}}')).toEqual([]);
    expect(names(d.end())).toEqual(['MODIFIED a']);
  });
  it('throws on a corrupt line', () => {
    expect(() => createWatchDecoder().push('not json\n')).toThrow();
  });
});

describe('readWatchStream', () => {
  it('delivers every event of a chunked body, including an ERROR 410', async () => {
    const text =
      line('ADDED', 'a') +
      JSON.stringify({
        type: 'ERROR',
        object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 5 (9)' },
      });
    const body = new ReadableStream<Uint8Array>({
      start(ctl) {
        const b = enc.encode(text);
        for (let i = 0; i < b.length; i += 7) ctl.enqueue(b.slice(i, i + 7));
        ctl.close();
      },
    });
    const got: WatchEventJSON[] = [];
    await readWatchStream(body, (e) => void got.push(e));
    expect(got.map((e) => e.type)).toEqual(['ADDED', 'ERROR']);
    expect(got[1].object.message).toBe('too old resource version: 5 (9)');
  });
});

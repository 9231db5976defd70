/**
 * The recorded relay of a kube-relay apiserver, streamed (src/server/relay.ts):
 * `GET /kube-relay/v1/info` answers `{"engine":"kube-relay",…}` on a kube-relay apiserver (the
 * feature check; a real cluster answers 404), and
 * `GET /kube-relay/v1/relay?sinceSeq=N&watch=1` streams newline-delimited RelayHop JSON, every
 * kept hop after seq N, then each new hop as it is recorded. Without the feature the attach
 * client infers the relay from what the API reveals (infer-relay.ts).
 */
import type { RelayHop } from '../store/types';
import type { FetchLike } from './resources';
import { readWatchStream } from './watch-reader';

/** Path prefix of kube-relay's own endpoints. */
export const RELAY_PREFIX = '/kube-relay/v1';

/** True when `base` is a kube-relay apiserver that streams its recorded relay. */
export async function hasRelayStream(fetchFn: FetchLike, base: string, signal: AbortSignal): Promise<boolean> {
  try {
    const res = await fetchFn(`${base}${RELAY_PREFIX}/info`, { headers: { Accept: 'application/json' }, signal });
    if (!res.ok) return false;
    const info = (await res.json()) as { engine?: unknown };
    return info.engine === 'kube-relay';
  } catch {
    return false;
  }
}

/**
 * Streams hops after `since` (a seq) until `signal` aborts, reconnecting after the stream ends
 * or fails (1 s pause), from the last seq seen.
 */
export async function streamRelay(
  fetchFn: FetchLike,
  base: string,
  since: number,
  onHop: (h: RelayHop) => void,
  sleep: (ms: number, signal: AbortSignal) => Promise<void>,
  signal: AbortSignal,
): Promise<void> {
  let last = since;
  while (!signal.aborted) {
    try {
      const res = await fetchFn(`${base}${RELAY_PREFIX}/relay?sinceSeq=${last}&watch=1`, {
        headers: { Accept: 'application/x-ndjson' },
        signal,
      });
      if (!res.ok || !res.body) throw new Error(String(res.status));
      // each line is one RelayHop (not a watch event); the line splitter is the same
      await readWatchStream(res.body, (line) => {
        const h = line as unknown as RelayHop;
        if (typeof h.seq === 'number' && h.seq > last) {
          last = h.seq;
          onHop(h);
        }
      });
    } catch {
      if (signal.aborted) return;
    }
    await sleep(1000, signal).catch(() => {});
  }
}

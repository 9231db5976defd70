/**
 * The recorded relay of a kube-relay apiserver, streamed (proposed for `npm run apiserver`, not
 * served yet): an API group `relay.kube-relay.dev/v1` listed in GET /apis, whose collection
 * `GET /apis/relay.kube-relay.dev/v1/hops?watch=1&resourceVersion=SEQ` streams
 * `{"type":"ADDED","object":RelayHop}` lines for every hop after seq SEQ (0: all kept), as a
 * watch does. The feature check is discovery (the group is listed), so a server without it
 * costs no failed request; the attach client then infers the relay (infer-relay.ts).
 */
import type { RelayHop } from '../store/types';
import type { FetchLike } from './resources';
import { readWatchStream } from './watch-reader';

/** The proposed API group serving the relay. */
export const RELAY_GROUP = 'relay.kube-relay.dev';
export const RELAY_PATH = `/apis/${RELAY_GROUP}/v1/hops`;

/** True when discovery lists the relay group (the feature check). */
export function hasRelayStream(groups: ReadonlySet<string>): boolean {
  return groups.has(RELAY_GROUP);
}

/**
 * Streams hops after `since` (a seq) until `signal` aborts, reconnecting after the stream ends
 * or fails (1 s pause), from the last seq seen.
 */
export async function streamRelay(fetchFn: FetchLike, base: string, since: number, onHop: (h: RelayHop) => void, sleep: (ms: number, signal: AbortSignal) => Promise<void>, signal: AbortSignal): Promise<void> {
  let last = since;
  while (!signal.aborted) {
    try {
      const res = await fetchFn(`${base}${RELAY_PATH}?watch=1&resourceVersion=${last}`, { headers: { Accept: 'application/json' }, signal });
      if (!res.ok || !res.body) throw new Error(String(res.status));
      await readWatchStream(res.body, (ev) => {
        const h = ev.object as RelayHop;
        if (ev.type === 'ADDED' && h.seq > last) {
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

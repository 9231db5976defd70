/**
 * Streaming reader for a Kubernetes watch response: the apiserver writes one JSON object per
 * line, `{"type":"ADDED"|"MODIFIED"|"DELETED"|"BOOKMARK"|"ERROR","object":{…}}`, over a chunked
 * HTTP body (staging/src/k8s.io/apimachinery/pkg/runtime/serializer/streaming, as decoded by
 * client-go's watch.StreamWatcher). Chunks may split a line, and a UTF-8 character, anywhere.
 * Pure: no fetch, no DOM; `readWatchStream` only needs a WHATWG ReadableStream.
 */

/** One decoded watch event (metav1.WatchEvent). `object` is a Status when type is ERROR. */
export interface WatchEventJSON {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  object: any;
}

/**
 * Splits a byte stream into watch events. `push(bytes)` returns the events completed by this
 * chunk (a trailing partial line is kept for the next one); `end()` returns the last event when
 * the stream ended without a newline. A line that is not JSON throws (the stream is corrupt).
 */
export function createWatchDecoder(): { push(chunk: Uint8Array | string): WatchEventJSON[]; end(): WatchEventJSON[] } {
  const utf8 = new TextDecoder('utf-8');
  let buffer = '';
  const lines = (final: boolean): WatchEventJSON[] => {
    const out: WatchEventJSON[] = [];
    let nl = buffer.indexOf('\n');
    while (nl >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line) out.push(JSON.parse(line) as WatchEventJSON);
      nl = buffer.indexOf('\n');
    }
    if (final && buffer.trim()) {
      out.push(JSON.parse(buffer.trim()) as WatchEventJSON);
      buffer = '';
    }
    return out;
  };
  return {
    push(chunk) {
      buffer += typeof chunk === 'string' ? chunk : utf8.decode(chunk, { stream: true });
      return lines(false);
    },
    end() {
      buffer += utf8.decode();
      return lines(true);
    },
  };
}

/**
 * Reads a watch body to its end, calling `onEvent` for each event in order. When `onEvent`
 * returns `false` (an ERROR event ends the watch) nothing more is read or delivered: the body is
 * cancelled and the promise resolves. Resolves when the server closes the stream; rejects on a
 * network error or a corrupt line.
 */
export async function readWatchStream(body: ReadableStream<Uint8Array>, onEvent: (ev: WatchEventJSON) => void | boolean): Promise<void> {
  const decoder = createWatchDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const ev of decoder.push(value)) {
        if (onEvent(ev) === false) {
          await reader.cancel().catch(() => {});
          return;
        }
      }
    }
    for (const ev of decoder.end()) if (onEvent(ev) === false) return;
  } finally {
    reader.releaseLock();
  }
}

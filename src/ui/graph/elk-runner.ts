/**
 * Runs ELK layouts in elkjs's own Web Worker (elk-worker.min.js, bundled by Vite as a same-origin
 * asset: nothing loads from the network). At most one layout runs at a time; requests made while
 * one runs collapse into the latest, so a burst of topology changes costs two layouts, not N.
 */
import ELK, { type ElkNode } from 'elkjs/lib/elk-api.js';
import elkWorkerUrl from 'elkjs/lib/elk-worker.min.js?url';

let elk: InstanceType<typeof ELK> | null = null;
let running = false;
let queued: { graph: ElkNode; done: (out: ElkNode | null) => void } | null = null;

function engine(): InstanceType<typeof ELK> {
  elk ??= new ELK({ workerUrl: elkWorkerUrl });
  return elk;
}

async function pump(graph: ElkNode, done: (out: ElkNode | null) => void): Promise<void> {
  running = true;
  try {
    done(await engine().layout(graph));
  } catch (e) {
    console.warn('elk layout failed', e);
    done(null);
  }
  running = false;
  const next = queued;
  queued = null;
  if (next) void pump(next.graph, next.done);
}

/**
 * Lays `graph` out off the main thread. Resolves with elk's result, or null when a newer request
 * replaced this one before it started (or elk failed).
 */
export function layoutInWorker(graph: ElkNode): Promise<ElkNode | null> {
  return new Promise((resolve) => {
    if (!running) {
      void pump(graph, resolve);
      return;
    }
    queued?.done(null);
    queued = { graph, done: resolve };
  });
}

/**
 * The queue in front of elk: at most one layout in flight; requests made meanwhile collapse
 * into the latest (a burst of structure changes costs two layouts, not N). The layout function
 * is injected: elk-worker.ts (elkjs's Web Worker) in the app, elkjs's bundled build in tests.
 */
import type { ElkNode } from 'elkjs/lib/elk-api.js';
import { elkXs, type ElkInput } from './elk-layout';

/** Lays an ELK graph out (elkjs `ELK.layout`). */
export type ElkLayoutFn = (graph: ElkNode) => Promise<ElkNode>;

/** elk's answer for one signature: left x of each block (null when elk failed). */
export type ElkResultHandler = (signature: string, xs: Map<string, number> | null) => void;

export interface ElkRunner {
  /** Asks for `input`'s layout: started now when none is in flight, else queued (replacing a queued one). */
  request(input: ElkInput): void;
  /** Whether a layout is in flight. */
  busy(): boolean;
}

export function createElkRunner(layout: ElkLayoutFn, onResult: ElkResultHandler): ElkRunner {
  let running = false;
  let queued: ElkInput | null = null;
  const run = (input: ElkInput) => {
    running = true;
    layout(input.graph)
      .then(
        (out) => onResult(input.signature, elkXs(out, input.lines)),
        (e: unknown) => {
          console.warn('elk layout failed', e);
          onResult(input.signature, null);
        },
      )
      .finally(() => {
        running = false;
        const next = queued;
        queued = null;
        if (next) run(next);
      });
  };
  return {
    request(input) {
      if (running) queued = input;
      else run(input);
    },
    busy: () => running,
  };
}

/**
 * elkjs in its own Web Worker: `elk-worker.min.js` is bundled by Vite as a same-origin asset
 * (nothing loads from the network) and started on the first layout. The main thread only posts
 * the graph and reads the answer.
 */
import ELK, { type ElkNode } from 'elkjs/lib/elk-api.js';
import elkWorkerUrl from 'elkjs/lib/elk-worker.min.js?url';

/** The Web Worker's name (`Worker.name`), so tests and devtools can tell it apart. */
export const ELK_WORKER_NAME = 'elk-layout';

let elk: InstanceType<typeof ELK> | null = null;

/** Lays `graph` out in elkjs's worker. */
export function layoutInElkWorker(graph: ElkNode): Promise<ElkNode> {
  elk ??= new ELK({ workerUrl: elkWorkerUrl, workerFactory: (url?: string) => new Worker(url ?? elkWorkerUrl, { name: ELK_WORKER_NAME }) });
  return elk.layout(graph);
}

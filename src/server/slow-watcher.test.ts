/**
 * A watcher that stops reading is closed once its queue passes the server's bound (issue 14 §3),
 * as the watch cache closes a cacheWatcher whose channel stays full: a raw socket that never
 * reads watches ConfigMaps (and the relay) while ConfigMaps are written in process (400 of 32 KiB, then
 * small ones until the relay's queue fills too) — more than loopback's socket buffers hold — and the server ends both streams,
 * and keeps serving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { Cluster } from '../cluster/cluster';
import { users } from '../cluster/client/clientset';
import { startServer, type RunningServer } from './server';
import { rawRequest } from './server.fixture';

const TOKEN = 'slow-watcher-token';
let srv: RunningServer;
let cluster: Cluster;
const sockets: Socket[] = [];

/** Opens a GET that is never read: the socket is paused right after the request is sent. */
function neverRead(path: string): Promise<Socket> {
  return new Promise((ok) => {
    const s = connect(srv.port, '127.0.0.1', () => {
      s.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`);
      s.pause();
      sockets.push(s);
      ok(s);
    });
  });
}

beforeAll(async () => {
  cluster = new Cluster();
  srv = await startServer(cluster, { port: 0, speed: 1, token: TOKEN, watchBufferBytes: 256 * 1024 });
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await srv.close();
});

describe('slow watchers', () => {
  it('closes a watch and a relay stream whose client does not read; the server stays up', async () => {
    await neverRead('/api/v1/namespaces/default/configmaps?watch=1');
    await neverRead('/kube-relay/v1/relay?watch=1');
    // both streams are registered once the server has read their requests
    for (let i = 0; i < 100 && srv.stats.openStreams < 2; i++) await new Promise((r) => setImmediate(r));
    expect(srv.stats.openStreams).toBe(2);
    const info = cluster.api.registry.forResource('', 'configmaps')!;
    const blob = 'x'.repeat(32 * 1024);
    for (let i = 0; i < 20_000 && srv.stats.slowWatchersClosed < 2; i++) {
      // large objects fill the watch; the relay's hops are small, so it takes more of them
      cluster.api.create(users.kubectl(), info, 'default', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}`, annotations: { note: 'y'.repeat(2000) } },
        data: i < 400 ? { blob } : {},
      });
      // let the sockets flush what the kernel takes
      await new Promise((r) => setImmediate(r));
    }
    expect(srv.stats.slowWatchersClosed).toBe(2);
    const r = await rawRequest(srv.port, '/api/v1/namespaces/default/configmaps?limit=1', { token: TOKEN });
    expect(r.code).toBe(200);
  });
});

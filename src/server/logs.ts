/**
 * GET /api/v1/namespaces/NS/pods/NAME/log — the pods/log subresource
 * (pkg/registry/core/pod/rest/log.go + pod/strategy.go LogLocation for the errors, then the
 * kubelet's GetContainerLogs: pkg/kubelet/kubelet_pods.go validateContainerLogStatus).
 * Query: container, previous, tailLines, limitBytes, follow.
 *
 * Without `follow` the answer is the container's log lines as text/plain. With `follow=true`
 * the response stays open (chunked, as the kubelet's streaming copy through the apiserver's
 * proxy) and each new line is written as the simulated container prints it; it ends when the
 * container stops running (exits, restarts, or its Pod is gone), when the client goes away, or
 * when the server stops. The engine keeps the last 5000 lines per container
 * (kubelet/pod-workers.ts), so a follower polling a container that prints faster than that
 * between two polls (every 50 wall ms) can miss lines.
 */
import type { Cluster } from '../cluster/cluster';
import type { KObject } from '../cluster/api/types';
import { newBadRequest } from '../cluster/api/errors';
import type { RequestCtx, Target } from './context';

/** Wall ms between two looks at a followed container's log. */
const FOLLOW_POLL_MS = 50;

function lineText(lines: string[]): string {
  return lines.map((l) => (l.endsWith('\n') ? l : `${l}\n`)).join('');
}

/** The container's current status and the kubelet's lines (current or previous run). */
function containerNow(
  cluster: Cluster,
  pod: KObject,
  container: string,
  previous: boolean,
): { running: boolean; containerID?: string; lines: string[] } {
  const statuses: KObject[] = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  const st = statuses.find((s) => s.name === container);
  const info = pod.spec?.nodeName
    ? cluster.kubelets.get(pod.spec.nodeName)?.containerInfo(pod.metadata.namespace ?? '', pod.metadata.name, container)[0]
    : undefined;
  return { running: !!st?.state?.running, containerID: st?.containerID, lines: info ? (previous ? info.previousLogs : info.logs) : [] };
}

/** Serves pods/log. @throws StatusError 400 for a container that is not valid or not started. */
export function podLog(ctx: RequestCtx, t: Target): void {
  const { cluster, query: q, req, res } = ctx;
  // the log REST reads the Pod from storage: only `get pods/log` is authorized
  cluster.api.authorizeRequest(ctx.user, 'get', t.info, t.namespace, t.name!, 'log');
  const pod = cluster.api.asAuthorized(() => cluster.api.get(ctx.user, t.info, t.namespace, t.name!, { quiet: true }));
  const containers: { name: string }[] = pod.spec?.containers ?? [];
  let container = q.get('container') ?? '';
  if (!container) {
    if (containers.length !== 1)
      throw newBadRequest(
        `a container name must be specified for pod ${pod.metadata.name}, choose one of: [${containers.map((c) => c.name).join(' ')}]`,
      );
    container = containers[0].name;
  }
  const all = [...(pod.spec?.initContainers ?? []), ...containers] as { name: string }[];
  if (!all.some((c) => c.name === container)) throw newBadRequest(`container ${container} is not valid for pod ${pod.metadata.name}`);
  const statuses: KObject[] = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  const st = statuses.find((s) => s.name === container);
  const previous = q.get('previous') === 'true';
  if (!pod.spec?.nodeName || (!previous && (!st || (!st.state?.running && !st.state?.terminated && !st.lastState?.terminated)))) {
    const reason = st?.state?.waiting?.reason ?? 'ContainerCreating';
    const why =
      reason === 'ErrImagePull' ? "image can't be pulled" : reason === 'ImagePullBackOff' ? 'trying and failing to pull image' : reason;
    throw newBadRequest(`container "${container}" in pod "${pod.metadata.name}" is waiting to start: ${why}`);
  }
  if (previous && !st?.lastState?.terminated)
    throw newBadRequest(`previous terminated container "${container}" in pod "${pod.metadata.name}" not found`);
  const now = containerNow(cluster, pod, container, previous);
  let lines = now.lines;
  const tail = q.get('tailLines');
  if (tail !== null && Number(tail) >= 0) lines = Number(tail) === 0 ? [] : lines.slice(-Number(tail));
  let text = lineText(lines);
  const limit = Number(q.get('limitBytes') ?? 0);
  if (limit > 0) text = Buffer.from(text).subarray(0, limit).toString('utf8');
  const follow = q.get('follow') === 'true' && !previous && now.running;
  if (!follow) {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(Buffer.byteLength(text)) });
    res.end(text);
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  if (text) res.write(text);
  let sent = now.lines.length;
  const id = now.containerID;
  const poll = setInterval(() => {
    const cur = cluster.api.getObject('pods', t.namespace, pod.metadata.name);
    const c = cur && cur.metadata.uid === pod.metadata.uid ? containerNow(cluster, cur, container, false) : undefined;
    if (c && c.containerID === id) {
      if (c.lines.length > sent) res.write(lineText(c.lines.slice(sent)));
      sent = c.lines.length;
    }
    if (!c || !c.running || c.containerID !== id) end();
  }, FOLLOW_POLL_MS);
  const end = () => {
    clearInterval(poll);
    if (!res.writableEnded) res.end();
  };
  req.on('close', end);
  res.on('close', end);
}

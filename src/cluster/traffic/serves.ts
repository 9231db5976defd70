/**
 * Does a Pod listen on a port, and what does it answer? The data plane's view of the simulated
 * containers (see traffic.ts, step 5), the same rule the kubelet's probes use
 * (kubelet/pod-workers.ts `serves` / `httpGet`; what known images serve:
 * userland/images/web-servers.ts).
 */
import type { KObject } from '../api/types';
import type { Kubelet } from '../kubelet/kubelet';
import type { HttpAnswer } from '../userland/images/web-servers';

export { IMAGE_PORTS, imageRepoName } from '../userland/images/web-servers';

/** True when a running container of `pod` (on `kubelet`'s node) listens on `port`. */
export function podServes(kubelet: Kubelet, pod: KObject, port: number): boolean {
  const rec = kubelet.podWorkers.get(pod.metadata.uid ?? '');
  return !!rec && kubelet.podWorkers.serves(rec, port);
}

/** GET `path` on `port` of `pod`: null when nothing listens, else the answer (assumed: 200 naming the Pod). */
export function podHttpGet(kubelet: Kubelet, pod: KObject, port: number, path: string): (HttpAnswer & { assumed: boolean }) | null {
  const rec = kubelet.podWorkers.get(pod.metadata.uid ?? '');
  return rec ? kubelet.podWorkers.httpGet(rec, port, path) : null;
}

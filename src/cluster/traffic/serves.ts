/**
 * Does a Pod listen on a port? The data plane's view of the simulated containers (see
 * traffic.ts, step 5): a running container whose process is the image's own listens on its
 * declared containerPorts (or, with none declared, its probes' ports — the rule the kubelet's
 * probes use, kubelet/pod-workers.ts `serves`) and on its image's known default port.
 */
import type { KObject } from '../api/types';
import type { Kubelet } from '../kubelet/kubelet';

/**
 * Default listen ports of well-known server images (their Dockerfiles' EXPOSE and default
 * config): repository name (last path element, no tag) → ports.
 */
export const IMAGE_PORTS: Readonly<Record<string, readonly number[]>> = {
  nginx: [80],
  httpd: [80],
  caddy: [80, 443],
  traefik: [80],
  'nginx-unprivileged': [8080],
  'hello-app': [8080],
  podinfo: [9898],
  'http-echo': [5678],
  agnhost: [80],
  redis: [6379],
  mysql: [3306],
  postgres: [5432],
  mongo: [27017],
  memcached: [11211],
};

/** The repository's last path element of an image reference: "docker.io/library/nginx:1.27" → "nginx". */
export function imageRepoName(image: string): string {
  const noDigest = image.split('@')[0];
  const last = noDigest.split('/').pop() ?? '';
  return last.split(':')[0];
}

/** True when a running container of `pod` (on `kubelet`'s node) listens on `port`. */
export function podServes(kubelet: Kubelet, pod: KObject, port: number): boolean {
  const rec = kubelet.podWorkers.get(pod.metadata.uid ?? '');
  if (!rec) return false;
  if (kubelet.podWorkers.serves(rec, port)) return true;
  return [...rec.initContainers, ...rec.containers].some(
    (c) => c.current.kind === 'running' && !!c.process?.assumed && (IMAGE_PORTS[imageRepoName(c.spec.image ?? '')] ?? []).includes(port),
  );
}

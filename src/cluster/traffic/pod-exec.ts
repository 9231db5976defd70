/**
 * The kubelet side of `kubectl exec` (pkg/kubelet/server → CRI ExecSync): runs argv in a running
 * container of a Pod through the simulated shell (userland/shell.ts) against that container's
 * files, so a file written or removed by `kubectl exec` is what exec probes and later readers see
 * (a PVC's files live on the volume). Unlike an exec probe, it runs in containers whose main
 * process is an image's own (nginx …) too.
 */
import type { KObject } from '../api/types';
import type { Kubelet } from '../kubelet/kubelet';
import { execInContainer } from '../userland/container-process';
import type { PodExecResult } from '../userland/traffic-types';

/** `kubectl exec`'s streaming limit here: a command may sleep this long before it counts as hung, ms. */
export const EXEC_TIMEOUT_MS = 60_000;

/**
 * Returns a `podExec` for kubectl (kubectl/cmd/exec.ts ExecEnv) over the cluster's kubelets.
 * @param now simulated clock reader (ms since the epoch)
 */
export function podExecVia(kubelets: ReadonlyMap<string, Kubelet>, now: () => number) {
  return (pod: KObject, container: string, argv: string[]): PodExecResult | null => {
    const k = pod.spec?.nodeName ? kubelets.get(pod.spec.nodeName) : undefined;
    if (!k?.powered) return null;
    const rec = k.podWorkers.get(pod.metadata.uid ?? '');
    const c = rec && [...rec.containers, ...rec.initContainers].find((x) => x.name === container);
    if (!rec || !c || c.current.kind !== 'running' || !c.fs) return null;
    const r = execInContainer(argv, { fs: c.fs, vars: { ...(c.process?.ctx.vars ?? {}) }, hostname: rec.name, now }, EXEC_TIMEOUT_MS);
    return { exitCode: r.exitCode < 0 ? 137 : r.exitCode, stdout: r.output, stderr: '' };
  };
}

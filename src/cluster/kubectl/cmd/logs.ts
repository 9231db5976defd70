/**
 * `kubectl logs POD|TYPE/NAME [-c CONTAINER] [--previous] [--tail N]`, as
 * staging/src/k8s.io/kubectl/pkg/cmd/logs/logs.go (default container, "Defaulted container"
 * notice, TYPE/NAME → first Pod by polymorphichelpers.LogsForObject) with the errors the
 * kubelet returns (pkg/kubelet/kubelet_pods.go validateContainerLogStatus) and the apiserver
 * (pkg/registry/core/pod/strategy.go LogLocation).
 */
import { newBadRequest } from '../../api/errors';
import { fromLabelSelector, selectorString } from '../../api/labels';
import type { KObject } from '../../api/types';
import { KubectlError, fail, resolveType, seeHelp, stderrOf, type Ctx, type FlagSpec, type KubectlResult } from './util';

/** Flags of `kubectl logs`. */
export const LOGS_FLAGS: FlagSpec = {
  container: { short: 'c' },
  previous: { bool: true, short: 'p' },
  tail: {},
  follow: { bool: true, short: 'f' },
  timestamps: { bool: true },
  'all-containers': { bool: true },
  selector: { short: 'l' },
  since: {},
  'since-time': {},
  'limit-bytes': {},
  prefix: { bool: true },
  'pod-running-timeout': {},
  'ignore-errors': { bool: true },
  'max-log-requests': {},
};

function podFor(ctx: Ctx, arg: string): { pod: KObject; notice?: string } {
  const pods = ctx.client.resource('', 'pods');
  if (!arg.includes('/')) return { pod: pods.get(ctx.namespace, arg) };
  const [t, name] = [arg.slice(0, arg.indexOf('/')), arg.slice(arg.indexOf('/') + 1)];
  const info = resolveType(ctx.client, t);
  if (info.kind === 'Pod') return { pod: pods.get(ctx.namespace, name) };
  const owner = ctx.client.resource(info.group, info.resource).get(info.namespaced ? ctx.namespace : '', name);
  const sel =
    info.kind === 'Service'
      ? { matchLabels: owner.spec?.selector ?? {} }
      : (owner.spec?.selector ?? owner.spec?.jobTemplate?.spec?.selector);
  if (!sel) throw new KubectlError(`error: cannot get the logs from ${info.kind.toLowerCase()}: selector for ${name} not implemented`);
  const list = pods.list(ctx.namespace, { labelSelector: selectorString(fromLabelSelector(sel)) }).items;
  if (!list.length) throw new KubectlError(`error: timed out waiting for the condition`);
  const sorted = [...list].sort((a, b) => {
    const ra = a.status?.phase === 'Running' ? 0 : 1;
    const rb = b.status?.phase === 'Running' ? 0 : 1;
    return (
      ra - rb ||
      (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
      a.metadata.name.localeCompare(b.metadata.name)
    );
  });
  return { pod: sorted[0], notice: list.length > 1 ? `Found ${list.length} pods, using pod/${sorted[0].metadata.name}` : undefined };
}

/** Runs `kubectl logs`. */
export function runLogs(ctx: Ctx): KubectlResult {
  if (!ctx.args.length)
    return fail(
      `error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\n${seeHelp('logs')}`,
    );
  if (ctx.args.length > 2)
    return fail(
      `error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\n${seeHelp('logs')}`,
    );
  const { pod, notice } = podFor(ctx, ctx.args[0]);
  const name = pod.metadata.name;
  const specs: { name: string }[] = [
    ...(pod.spec?.initContainers ?? []),
    ...(pod.spec?.containers ?? []),
    ...(pod.spec?.ephemeralContainers ?? []),
  ];
  const stderr: string[] = [];
  if (notice) stderr.push(notice);
  let container = ctx.flags.get('container') ?? ctx.args[1];
  if (!container) {
    const containers: { name: string }[] = pod.spec?.containers ?? [];
    const annotated = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
    container = annotated && specs.some((c) => c.name === annotated) ? annotated : containers[0]?.name;
    if (!annotated && containers.length > 1)
      stderr.push(`Defaulted container "${container}" out of: ${specs.map((c) => c.name).join(', ')}`);
  }
  if (!specs.some((c) => c.name === container)) {
    return fail(`error: container ${container} is not valid for pod ${name}`);
  }
  if (!pod.spec?.nodeName) throw newBadRequest(`container "${container}" in pod "${name}" is waiting to start: ContainerCreating`);
  const statuses: KObject[] = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  const st = statuses.find((s) => s.name === container);
  const previous = ctx.flags.has('previous') && ctx.flags.get('previous') !== 'false';
  if (previous) {
    if (!st?.lastState?.terminated?.containerID && !st?.lastState?.terminated)
      throw newBadRequest(`previous terminated container "${container}" in pod "${name}" not found`);
  } else if (!st) {
    throw newBadRequest(`container "${container}" in pod "${name}" is waiting to start: ContainerCreating`);
  } else if (
    !st.state?.running &&
    !st.state?.terminated &&
    !(st.lastState?.terminated && st.state?.waiting?.reason === 'CrashLoopBackOff')
  ) {
    const reason = st.state?.waiting?.reason ?? 'ContainerCreating';
    const why =
      reason === 'ErrImagePull' ? "image can't be pulled" : reason === 'ImagePullBackOff' ? 'trying and failing to pull image' : reason;
    throw newBadRequest(`container "${container}" in pod "${name}" is waiting to start: ${why}`);
  }
  // GET pods/{name}/log: its own authorization (`get pods/log`)
  ctx.client.api.authorizeRequest(
    ctx.client.user,
    'get',
    { group: '', resource: 'pods' },
    pod.metadata.namespace ?? 'default',
    name,
    'log',
  );
  const kubelet = ctx.env.kubelets?.get(pod.spec.nodeName);
  const info = kubelet?.containerInfo(pod.metadata.namespace ?? 'default', name, container)[0];
  let lines = info ? (previous ? info.previousLogs : info.logs) : [];
  const tail = ctx.flags.get('tail');
  if (tail !== undefined && Number(tail) >= 0) lines = Number(tail) === 0 ? [] : lines.slice(-Number(tail));
  return { output: lines.map((l) => (l.endsWith('\n') ? l : `${l}\n`)).join(''), error: stderrOf(stderr), exitCode: 0 };
}

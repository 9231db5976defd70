/**
 * The cells `kubectl get` computes per kind, as pkg/printers/internalversion/printers.go does
 * for kubectl v1.33 (printPod's STATUS/READY/RESTARTS, printNode's STATUS and ROLES, printService's
 * PORT(S) and EXTERNAL-IP) and duration.HumanDuration for AGE. Shared by the tables (table.ts)
 * and the UI's rows (printers.ts describeRow).
 */
import type { KObject } from '../api/types';

/**
 * translateTimestampSince / duration.HumanDuration: "45s", "5m12s", "3h", "2d4h"…
 * @param ms a duration in milliseconds (negative or NaN → "<unknown>")
 */
export function humanDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '<invalid>';
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    return dy === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

/** An object's AGE column at `nowMs` (ms since the epoch, simulated): "<unknown>" without it. */
export function age(obj: KObject, nowMs: number | undefined): string {
  const ts = obj.metadata.creationTimestamp;
  if (!ts || nowMs === undefined) return '<unknown>';
  return humanDuration(nowMs - Date.parse(ts));
}

interface ContainerStatus {
  name: string;
  ready?: boolean;
  restartCount?: number;
  started?: boolean;
  state?: {
    waiting?: { reason?: string };
    running?: { startedAt?: string };
    terminated?: { reason?: string; exitCode?: number; signal?: number; finishedAt?: string };
  };
  lastState?: { terminated?: { finishedAt?: string } };
}

/** printPod's STATUS, READY and RESTARTS. */
export function podColumns(pod: KObject, nowMs?: number): { status: string; ready: string; restarts: string } {
  const spec = pod.spec ?? {};
  const status = pod.status ?? {};
  const initContainers: { name: string; restartPolicy?: string }[] = spec.initContainers ?? [];
  const containers: unknown[] = spec.containers ?? [];
  let restarts = 0;
  let restartableInit = 0;
  let totalContainers = containers.length;
  let readyContainers = 0;
  let lastRestart = 0;
  let reason: string = status.phase ?? '';
  if (status.reason) reason = status.reason;

  for (const ic of initContainers) if (ic.restartPolicy === 'Always') restartableInit++;
  totalContainers += restartableInit;

  const initStatuses: ContainerStatus[] = status.initContainerStatuses ?? [];
  let initializing = false;
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i];
    restarts += c.restartCount ?? 0;
    const t = c.lastState?.terminated?.finishedAt;
    if (t) lastRestart = Math.max(lastRestart, Date.parse(t));
    const restartable = initContainers.find((x) => x.name === c.name)?.restartPolicy === 'Always';
    if (restartable && c.started) {
      if (c.ready) readyContainers++;
      continue;
    }
    if (c.state?.terminated && c.state.terminated.exitCode === 0) continue;
    if (c.state?.terminated) {
      const tr = c.state.terminated;
      if (!tr.reason) reason = tr.signal ? `Init:Signal:${tr.signal}` : `Init:ExitCode:${tr.exitCode ?? 0}`;
      else reason = `Init:${tr.reason}`;
      initializing = true;
    } else if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing') {
      reason = `Init:${c.state.waiting.reason}`;
      initializing = true;
    } else {
      reason = `Init:${i}/${initContainers.length}`;
      initializing = true;
    }
    break;
  }
  const conds: { type: string; status: string }[] = status.conditions ?? [];
  const initializedTrue = conds.some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initializedTrue) {
    restarts = 0;
    let hasRunning = false;
    const cs: ContainerStatus[] = status.containerStatuses ?? [];
    for (let i = cs.length - 1; i >= 0; i--) {
      const c = cs[i];
      restarts += c.restartCount ?? 0;
      const t = c.lastState?.terminated?.finishedAt;
      if (t) lastRestart = Math.max(lastRestart, Date.parse(t));
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (c.state?.terminated?.reason) reason = c.state.terminated.reason;
      else if (c.state?.terminated)
        reason = c.state.terminated.signal ? `Signal:${c.state.terminated.signal}` : `ExitCode:${c.state.terminated.exitCode ?? 0}`;
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        readyContainers++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = conds.some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
    }
  }
  const phase = status.phase;
  if (pod.metadata.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';
  let restartsStr = String(restarts);
  if (lastRestart && nowMs !== undefined && restarts > 0) restartsStr = `${restarts} (${humanDuration(nowMs - lastRestart)} ago)`;
  return { status: reason, ready: `${readyContainers}/${totalContainers}`, restarts: restartsStr };
}

/** printNode's STATUS: "Ready", "NotReady", "Unknown", plus ",SchedulingDisabled". */
export function nodeStatus(node: KObject): string {
  const parts: string[] = [];
  const ready = (node.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Ready');
  if (ready) parts.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  if (!parts.length) parts.push('Unknown');
  if (node.spec?.unschedulable) parts.push('SchedulingDisabled');
  return parts.join(',');
}

/** printNode's ROLES: from node-role.kubernetes.io/<role> and kubernetes.io/role labels. */
export function nodeRoles(node: KObject): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) roles.add(k.slice('node-role.kubernetes.io/'.length));
    else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  return roles.size ? [...roles].sort().join(',') : '<none>';
}

/** Service PORT(S): "80/TCP", "80:30080/TCP,443/TCP". */
export function servicePorts(svc: KObject): string {
  const ports: { port: number; nodePort?: number; protocol?: string }[] = svc.spec?.ports ?? [];
  if (!ports.length) return '<none>';
  return ports.map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol ?? 'TCP'}` : `${p.port}/${p.protocol ?? 'TCP'}`)).join(',');
}

/** printService's EXTERNAL-IP column. */
export function serviceExternalIP(svc: KObject): string {
  const type = svc.spec?.type ?? 'ClusterIP';
  const ext: string[] = svc.spec?.externalIPs ?? [];
  switch (type) {
    case 'ClusterIP':
    case 'NodePort':
      return ext.length ? ext.join(',') : '<none>';
    case 'LoadBalancer': {
      const ing: { ip?: string; hostname?: string }[] = svc.status?.loadBalancer?.ingress ?? [];
      const ips = [...ing.map((i) => i.ip || i.hostname || ''), ...ext].filter(Boolean);
      return ips.length ? ips.join(',') : '<pending>';
    }
    case 'ExternalName':
      return svc.spec?.externalName ?? '';
  }
  return '<unknown>';
}

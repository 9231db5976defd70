/**
 * `kubectl describe pod` and the pod-template section other describers share, as
 * staging/src/k8s.io/kubectl/pkg/describe/describe.go (describePod, describeContainers,
 * describeContainerBasicInfo/State/Probe/EnvVars/Volumes, describeResources,
 * describeVolumes, DescribeProbe, DescribePodTemplate).
 */
import type { KObject } from '../../api/types';
import { cpuMillis, bytesOf, formatBytes, formatMilliCPU } from '../../api/quantity';
import { since } from '../table';
import {
  PrefixWriter,
  controllerOf,
  describeEvents,
  printAnnotationsMultiline,
  printLabelsMultiline,
  printTolerationsMultiline,
  rfc1123z,
} from './describe-util';

function portsOf(c: KObject): [string, string] {
  const ports: { containerPort: number; hostPort?: number; protocol?: string }[] = c.ports ?? [];
  return [
    ports.map((p) => `${p.containerPort}/${p.protocol ?? 'TCP'}`).join(', '),
    ports.map((p) => `${p.hostPort ?? 0}/${p.protocol ?? 'TCP'}`).join(', '),
  ];
}

/** DescribeProbe. */
export function describeProbe(p: KObject): string {
  const attrs = `delay=${p.initialDelaySeconds ?? 0}s timeout=${p.timeoutSeconds ?? 1}s period=${p.periodSeconds ?? 10}s #success=${p.successThreshold ?? 1} #failure=${p.failureThreshold ?? 3}`;
  if (p.exec) return `exec [${(p.exec.command ?? []).join(' ')}] ${attrs}`;
  if (p.httpGet) {
    const h = p.httpGet;
    const host = String(h.host ?? '');
    const port = h.port === undefined ? '' : String(h.port);
    const hp = port ? (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`) : host;
    return `http-get ${String(h.scheme ?? 'HTTP').toLowerCase()}://${hp}${h.path ?? ''} ${attrs}`;
  }
  if (p.tcpSocket) return `tcp-socket ${p.tcpSocket.host ?? ''}:${p.tcpSocket.port} ${attrs}`;
  if (p.grpc) return `grpc <pod>:${p.grpc.port} ${p.grpc.service ?? ''} ${attrs}`;
  return `unknown ${attrs}`;
}

function quantityString(name: string, v: string | number): string {
  if (typeof v === 'string') return v;
  return name === 'cpu' ? formatMilliCPU(v * 1000) : String(v);
}

/** describeResources: Limits and Requests, names sorted. */
export function describeResources(w: PrefixWriter, res: KObject | undefined, level: number): void {
  if (!res) return;
  for (const key of ['limits', 'requests']) {
    const m: Record<string, string | number> = res[key] ?? {};
    const names = Object.keys(m).sort();
    if (names.length) w.write(level, `${key === 'limits' ? 'Limits' : 'Requests'}:\n`);
    for (const n of names) w.write(level + 1, `${n}:\t${quantityString(n, m[n])}\n`);
  }
}

function describeState(w: PrefixWriter, title: string, state: KObject | undefined): void {
  if (state?.running) {
    w.write(2, `${title}:\tRunning\n`);
    w.write(3, `Started:\t${rfc1123z(state.running.startedAt)}\n`);
  } else if (state?.waiting) {
    w.write(2, `${title}:\tWaiting\n`);
    if (state.waiting.reason) w.write(3, `Reason:\t${state.waiting.reason}\n`);
  } else if (state?.terminated) {
    const t = state.terminated;
    w.write(2, `${title}:\tTerminated\n`);
    if (t.reason) w.write(3, `Reason:\t${t.reason}\n`);
    if (t.message) w.write(3, `Message:\t${t.message}\n`);
    w.write(3, `Exit Code:\t${t.exitCode ?? 0}\n`);
    if (t.signal) w.write(3, `Signal:\t${t.signal}\n`);
    w.write(3, `Started:\t${rfc1123z(t.startedAt)}\n`);
    w.write(3, `Finished:\t${rfc1123z(t.finishedAt)}\n`);
  } else w.write(2, `${title}:\tWaiting\n`);
}

function describeEnv(w: PrefixWriter, c: KObject): void {
  if (c.envFrom?.length) {
    w.write(2, 'Environment Variables from:\n');
    for (const e of c.envFrom) {
      const ref = e.configMapRef ?? e.secretRef ?? {};
      const from = e.configMapRef ? 'ConfigMap' : 'Secret';
      const optional = Boolean(ref.optional);
      if (e.prefix) w.write(3, `${ref.name}\t${from} with prefix '${e.prefix}'\tOptional: ${optional}\n`);
      else w.write(3, `${ref.name}\t${from}\tOptional: ${optional}\n`);
    }
  }
  const env: KObject[] = c.env ?? [];
  w.write(2, `Environment:${env.length ? '' : '\t<none>'}\n`);
  for (const e of env) {
    if (!e.valueFrom) {
      String(e.value ?? '')
        .split('\n')
        .forEach((s, i) => w.write(3, i === 0 ? `${e.name}:\t${s}\n` : `\t${s}\n`));
      continue;
    }
    const vf = e.valueFrom;
    if (vf.fieldRef) w.write(3, `${e.name}:\t (${vf.fieldRef.apiVersion ?? 'v1'}:${vf.fieldRef.fieldPath})\n`);
    else if (vf.resourceFieldRef) w.write(3, `${e.name}:\t (${vf.resourceFieldRef.resource})\n`);
    else if (vf.secretKeyRef)
      w.write(
        3,
        `${e.name}:\t<set to the key '${vf.secretKeyRef.key}' in secret '${vf.secretKeyRef.name}'>\tOptional: ${Boolean(vf.secretKeyRef.optional)}\n`,
      );
    else if (vf.configMapKeyRef)
      w.write(
        3,
        `${e.name}:\t<set to the key '${vf.configMapKeyRef.key}' of config map '${vf.configMapKeyRef.name}'>\tOptional: ${Boolean(vf.configMapKeyRef.optional)}\n`,
      );
  }
}

/** describeContainers (statuses: undefined for a template). */
export function describeContainers(
  w: PrefixWriter,
  label: string,
  containers: KObject[],
  statuses: KObject[] | undefined,
  space: string,
): void {
  w.write(0, `${space}${label}:${containers.length ? '' : ' <none>'}\n`);
  for (const c of containers) {
    const st = statuses?.find((s) => s.name === c.name);
    w.write(1, `${space ? ' ' : ''}${c.name}:\n`);
    if (st) w.write(2, `Container ID:\t${st.containerID ?? ''}\n`);
    w.write(2, `Image:\t${c.image ?? ''}\n`);
    if (st) w.write(2, `Image ID:\t${st.imageID ?? ''}\n`);
    const [ports, hostPorts] = portsOf(c);
    w.write(2, ports.includes(',') ? `Ports:\t${ports}\n` : `Port:\t${ports || '<none>'}\n`);
    w.write(2, hostPorts.includes(',') ? `Host Ports:\t${hostPorts}\n` : `Host Port:\t${hostPorts || '<none>'}\n`);
    if (c.restartPolicy) w.write(2, `Restart Policy:\t${c.restartPolicy}\n`);
    for (const [k, title] of [
      ['command', 'Command'],
      ['args', 'Args'],
    ] as const) {
      if (c[k]?.length) {
        w.write(2, `${title}:\n`);
        for (const s of c[k] as string[]) for (const part of s.split('\n')) w.write(3, `${part}\n`);
      }
    }
    if (st) {
      describeState(w, 'State', st.state);
      if (st.lastState?.terminated) describeState(w, 'Last State', st.lastState);
      w.write(2, `Ready:\t${st.ready ? 'True' : 'False'}\n`);
      w.write(2, `Restart Count:\t${st.restartCount ?? 0}\n`);
    }
    describeResources(w, c.resources, 2);
    if (c.livenessProbe) w.write(2, `Liveness:\t${describeProbe(c.livenessProbe)}\n`);
    if (c.readinessProbe) w.write(2, `Readiness:\t${describeProbe(c.readinessProbe)}\n`);
    if (c.startupProbe) w.write(2, `Startup:\t${describeProbe(c.startupProbe)}\n`);
    describeEnv(w, c);
    const mounts: KObject[] = [...(c.volumeMounts ?? [])].sort((a, b) =>
      a.mountPath < b.mountPath ? -1 : a.mountPath > b.mountPath ? 1 : 0,
    );
    w.write(2, `Mounts:${mounts.length ? '' : '\t<none>'}\n`);
    for (const m of mounts) {
      const flags = [m.readOnly ? 'ro' : 'rw', ...(m.subPath ? [`path="${m.subPath}"`] : [])];
      w.write(3, `${m.mountPath} from ${m.name} (${flags.join(',')})\n`);
    }
  }
}

/** describeVolumes. */
export function describeVolumes(w: PrefixWriter, volumes: KObject[] | undefined, space: string): void {
  if (!volumes?.length) return w.write(0, `${space}Volumes:\t<none>\n`);
  w.write(0, `${space}Volumes:\n`);
  for (const v of volumes) {
    w.write(1, `${space ? ' ' : ''}${v.name}:\n`);
    if (v.emptyDir)
      w.write(
        2,
        `Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t${v.emptyDir.medium ?? ''}\n    SizeLimit:\t${v.emptyDir.sizeLimit ?? '<unset>'}\n`,
      );
    else if (v.hostPath)
      w.write(
        2,
        `Type:\tHostPath (bare host directory volume)\n    Path:\t${v.hostPath.path}\n    HostPathType:\t${v.hostPath.type || '<none>'}\n`,
      );
    else if (v.configMap)
      w.write(
        2,
        `Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t${v.configMap.name}\n    Optional:\t${Boolean(v.configMap.optional)}\n`,
      );
    else if (v.secret)
      w.write(
        2,
        `Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t${v.secret.secretName}\n    Optional:\t${Boolean(v.secret.optional)}\n`,
      );
    else if (v.persistentVolumeClaim)
      w.write(
        2,
        `Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t${v.persistentVolumeClaim.claimName}\n    ReadOnly:\t${Boolean(v.persistentVolumeClaim.readOnly)}\n`,
      );
    else if (v.projected) {
      w.write(2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
      for (const s of v.projected.sources ?? []) {
        if (s.serviceAccountToken) w.write(2, `TokenExpirationSeconds:\t${s.serviceAccountToken.expirationSeconds ?? 3600}\n`);
        else if (s.configMap) w.write(2, `ConfigMapName:\t${s.configMap.name}\n    Optional:\t${Boolean(s.configMap.optional)}\n`);
        else if (s.secret) w.write(2, `SecretName:\t${s.secret.name}\n    Optional:\t${Boolean(s.secret.optional)}\n`);
        else if (s.downwardAPI) w.write(2, 'DownwardAPI:\ttrue\n');
      }
    } else w.write(2, `<unknown>\n`);
  }
}

/** DescribePodTemplate, as text (rollout history --revision) or into a writer. */
export function describePodTemplate(tmpl: KObject, w?: PrefixWriter): string {
  const own = !w;
  const pw = w ?? new PrefixWriter();
  pw.write(0, 'Pod Template:\n');
  printLabelsMultiline(pw, '  Labels', tmpl.metadata?.labels);
  if (Object.keys(tmpl.metadata?.annotations ?? {}).length) printAnnotationsMultiline(pw, '  Annotations', tmpl.metadata.annotations);
  const spec = tmpl.spec ?? {};
  if (spec.serviceAccountName) pw.write(1, `Service Account:\t${spec.serviceAccountName}\n`);
  if (spec.initContainers?.length) describeContainers(pw, 'Init Containers', spec.initContainers, undefined, '  ');
  describeContainers(pw, 'Containers', spec.containers ?? [], undefined, '  ');
  describeVolumes(pw, spec.volumes, '  ');
  if (spec.priorityClassName) pw.write(1, `Priority Class Name:\t${spec.priorityClassName}\n`);
  printLabelsMultiline(pw, '  Node-Selectors', spec.nodeSelector);
  printTolerationsMultiline(pw, '  Tolerations', spec.tolerations);
  return own ? pw.toString() : '';
}

/** GetPodQOS: the status field, else computed from requests and limits. */
export function podQOS(pod: KObject): string {
  if (pod.status?.qosClass) return pod.status.qosClass;
  const cs: KObject[] = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of cs) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    if (Object.keys(req).length || Object.keys(lim).length) any = true;
    for (const r of ['cpu', 'memory']) {
      if (lim[r] === undefined) guaranteed = false;
      else if (req[r] !== undefined && (r === 'cpu' ? cpuMillis(req[r]) !== cpuMillis(lim[r]) : bytesOf(req[r]) !== bytesOf(lim[r])))
        guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** describePod. */
export function describePod(pod: KObject, events: KObject[], nowMs: number): string {
  const w = new PrefixWriter();
  const s = pod.status ?? {};
  w.write(0, `Name:\t${pod.metadata.name}\n`);
  w.write(0, `Namespace:\t${pod.metadata.namespace}\n`);
  if (pod.spec?.priority !== undefined) w.write(0, `Priority:\t${pod.spec.priority}\n`);
  if (pod.spec?.priorityClassName) w.write(0, `Priority Class Name:\t${pod.spec.priorityClassName}\n`);
  if (pod.spec?.runtimeClassName) w.write(0, `Runtime Class Name:\t${pod.spec.runtimeClassName}\n`);
  if (pod.spec?.serviceAccountName) w.write(0, `Service Account:\t${pod.spec.serviceAccountName}\n`);
  w.write(0, pod.spec?.nodeName ? `Node:\t${pod.spec.nodeName}/${s.hostIP ?? ''}\n` : 'Node:\t<none>\n');
  if (s.startTime) w.write(0, `Start Time:\t${rfc1123z(s.startTime)}\n`);
  printLabelsMultiline(w, 'Labels', pod.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', pod.metadata.annotations);
  if (pod.metadata.deletionTimestamp && s.phase !== 'Failed' && s.phase !== 'Succeeded') {
    w.write(0, `Status:\tTerminating (lasts ${since(pod.metadata.deletionTimestamp, nowMs)})\n`);
    w.write(0, `Termination Grace Period:\t${pod.metadata.deletionGracePeriodSeconds ?? 0}s\n`);
  } else w.write(0, `Status:\t${s.phase ?? ''}\n`);
  if (s.reason) w.write(0, `Reason:\t${s.reason}\n`);
  if (s.message) w.write(0, `Message:\t${s.message}\n`);
  w.write(0, `IP:\t${s.podIP ?? ''}\n`);
  if (!s.podIPs?.length) w.write(0, 'IPs:\t<none>\n');
  else {
    w.write(0, 'IPs:\n');
    for (const ip of s.podIPs) w.write(1, `IP:\t${ip.ip}\n`);
  }
  const ctl = controllerOf(pod);
  if (ctl) w.write(0, `Controlled By:\t${ctl}\n`);
  if (s.nominatedNodeName) w.write(0, `NominatedNodeName:\t${s.nominatedNodeName}\n`);
  if (pod.spec?.initContainers?.length)
    describeContainers(w, 'Init Containers', pod.spec.initContainers, s.initContainerStatuses ?? [], '');
  describeContainers(w, 'Containers', pod.spec?.containers ?? [], s.containerStatuses ?? [], '');
  if (pod.spec?.readinessGates?.length) {
    w.write(0, 'Readiness Gates:\n  Type\tStatus\n');
    for (const g of pod.spec.readinessGates) {
      const c = (s.conditions ?? []).find((x: { type: string }) => x.type === g.conditionType);
      w.write(1, `${g.conditionType} \t${c?.status ?? '<none>'} \n`);
    }
  }
  if (s.conditions?.length) {
    w.write(0, 'Conditions:\n  Type\tStatus\n');
    for (const c of s.conditions) w.write(1, `${c.type} \t${c.status} \n`);
  }
  describeVolumes(w, pod.spec?.volumes, '');
  w.write(0, `QoS Class:\t${podQOS(pod)}\n`);
  printLabelsMultiline(w, 'Node-Selectors', pod.spec?.nodeSelector);
  printTolerationsMultiline(w, 'Tolerations', pod.spec?.tolerations);
  describeEvents(w, events, nowMs);
  return w.toString();
}

/** Sum of requests or limits over a Pod's containers (resourcehelper.PodRequestsAndLimits, simplified: max with init containers). */
export function podRequests(pod: KObject, key: 'requests' | 'limits'): { cpu: number; memory: number; 'ephemeral-storage': number } {
  const sum = { cpu: 0, memory: 0, 'ephemeral-storage': 0 };
  for (const c of pod.spec?.containers ?? []) {
    const m = c.resources?.[key] ?? {};
    sum.cpu += cpuMillis(m.cpu);
    sum.memory += bytesOf(m.memory);
    sum['ephemeral-storage'] += bytesOf(m['ephemeral-storage']);
  }
  for (const c of pod.spec?.initContainers ?? []) {
    const m = c.resources?.[key] ?? {};
    sum.cpu = Math.max(sum.cpu, cpuMillis(m.cpu));
    sum.memory = Math.max(sum.memory, bytesOf(m.memory));
  }
  return sum;
}

/** Quantity.String() of a summed value. */
export function qty(name: string, v: number): string {
  if (v === 0) return '0';
  return name === 'cpu' ? formatMilliCPU(v) : formatBytes(v);
}

/**
 * `kubectl describe`, as staging/src/k8s.io/kubectl/pkg/cmd/describe/describe.go (names,
 * prefix match when the name is not found, -l, -A, blank lines between objects) and
 * pkg/describe/describe.go (NodeDescriber, DeploymentDescriber, ReplicaSetDescriber,
 * ServiceDescriber, and the genericDescriber for everything else, e.g. Lease); PVC, PV,
 * StatefulSet, Namespace and Ingress describers live in describe-storage.ts; HPA, Job,
 * CronJob, DaemonSet and PDB in describe-workloads.ts; ConfigMap, Secret, StorageClass,
 * EndpointSlice, Endpoints, IngressClass, ServiceAccount, PriorityClass and (Cluster)RoleBinding
 * in describe-config.ts; Role and ClusterRole in describe-rbac.ts; NetworkPolicy, ResourceQuota
 * and LimitRange in describe-policy.ts.
 */
import type { KObject } from '../../api/types';
import { formatLabelSelector } from '../../api/labels';
import { cpuMillis, bytesOf } from '../../api/quantity';
import { since, formatLabels } from '../table';
import { describePod, describePodTemplate, podRequests, qty } from './describe-pod';
import {
  PrefixWriter,
  controllerOf,
  describeEvents,
  eventsFor,
  printAnnotationsMultiline,
  printLabelsMultiline,
  printTaintsMultiline,
  rfc1123z,
} from './describe-util';
import { fail, resolveTargets, stderrOf, tryStatus, type Ctx, type FlagSpec, type KubectlResult } from './util';
import { ownedReplicaSets } from './rollout';
import {
  describeIngress,
  describeNamespace,
  describePersistentVolume,
  describePersistentVolumeClaim,
  describeStatefulSet,
  type DescribeEnv,
} from './describe-storage';
import { describeCronJob, describeDaemonSet, describeHPA, describeJob, describePDB } from './describe-workloads';
import { describeRole } from './describe-rbac';
import { describeLimitRange, describeNetworkPolicy, describeResourceQuota } from './describe-policy';
import {
  describeConfigMap,
  describeEndpointSlice,
  describeEndpoints,
  describeIngressClass,
  describePriorityClass,
  describeRoleBinding,
  describeSecret,
  describeServiceAccount,
  describeStorageClass,
} from './describe-config';
import { getOwn } from '../../api/safe-object';

/** The dedicated describers by kind (describe.go describerMap); every other kind gets the genericDescriber. */
const DESCRIBERS: Record<string, (o: KObject, d: DescribeEnv) => string> = {
  HorizontalPodAutoscaler: describeHPA,
  Job: describeJob,
  CronJob: describeCronJob,
  DaemonSet: describeDaemonSet,
  PodDisruptionBudget: describePDB,
  ConfigMap: describeConfigMap,
  Secret: (o) => describeSecret(o),
  StorageClass: describeStorageClass,
  EndpointSlice: describeEndpointSlice,
  Endpoints: describeEndpoints,
  IngressClass: describeIngressClass,
  ServiceAccount: describeServiceAccount,
  PriorityClass: describePriorityClass,
  RoleBinding: (o) => describeRoleBinding(o),
  ClusterRoleBinding: (o) => describeRoleBinding(o),
  Role: (o) => describeRole(o),
  ClusterRole: (o) => describeRole(o),
  NetworkPolicy: (o) => describeNetworkPolicy(o),
  ResourceQuota: (o) => describeResourceQuota(o),
  LimitRange: (o) => describeLimitRange(o),
};

/** Flags of `kubectl describe`. */
export const DESCRIBE_FLAGS: FlagSpec = {
  'all-namespaces': { bool: true, short: 'A' },
  selector: { short: 'l' },
  'show-events': {},
  'chunk-size': {},
  filename: { short: 'f' },
  recursive: { bool: true, short: 'R' },
};

/**
 * NodeDescriber.Describe's events: two searchEvents queries merged — the Node's reference
 * with its UID (node-lifecycle controller: RegisteredNode, NodeNotReady …) and the same
 * reference with UID = node name (the kubelet's events).
 */
export function nodeEvents(all: KObject[], node: KObject): KObject[] {
  const byUid = all.filter((e) => e.involvedObject?.uid && e.involvedObject.uid === node.metadata.uid && eventsFor([e], node).length);
  const byName = eventsFor(all, node, node.metadata.name).filter((e) => !byUid.includes(e));
  return [...byUid, ...byName];
}

function describeNode(node: KObject, d: DescribeEnv): string {
  const { ctx } = d;
  const w = new PrefixWriter();
  const roles = Object.keys(node.metadata.labels ?? {})
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length))
    .sort();
  w.write(0, `Name:\t${node.metadata.name}\n`);
  w.write(0, `Roles:\t${roles.length ? roles.join(',') : '<none>'}\n`);
  printLabelsMultiline(w, 'Labels', node.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', node.metadata.annotations);
  w.write(0, `CreationTimestamp:\t${rfc1123z(node.metadata.creationTimestamp)}\n`);
  printTaintsMultiline(w, 'Taints', node.spec?.taints);
  w.write(0, `Unschedulable:\t${Boolean(node.spec?.unschedulable)}\n`);
  const lease = ctx.client.api.getObject('leases.coordination.k8s.io', 'kube-node-lease', node.metadata.name);
  if (lease) {
    w.write(0, 'Lease:\n');
    w.write(1, `HolderIdentity:\t${lease.spec?.holderIdentity ?? '<unset>'}\n`);
    w.write(1, `AcquireTime:\t${lease.spec?.acquireTime ? rfc1123z(lease.spec.acquireTime) : '<unset>'}\n`);
    w.write(1, `RenewTime:\t${lease.spec?.renewTime ? rfc1123z(lease.spec.renewTime) : '<unset>'}\n`);
  }
  const st = node.status ?? {};
  if (st.conditions?.length) {
    w.write(0, 'Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n');
    w.write(1, '----\t------\t-----------------\t------------------\t------\t-------\n');
    for (const c of st.conditions)
      w.write(
        1,
        `${c.type} \t${c.status} \t${rfc1123z(c.lastHeartbeatTime)} \t${rfc1123z(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`,
      );
  }
  w.write(0, 'Addresses:\n');
  for (const a of st.addresses ?? []) w.write(1, `${a.type}:\t${a.address}\n`);
  for (const [key, title] of [
    ['capacity', 'Capacity'],
    ['allocatable', 'Allocatable'],
  ] as const) {
    const m: Record<string, string> = st[key] ?? {};
    if (!Object.keys(m).length) continue;
    w.write(0, `${title}:\n`);
    for (const r of Object.keys(m).sort()) w.write(0, `  ${r}:\t${m[r]}\n`);
  }
  const ni = st.nodeInfo ?? {};
  w.write(0, 'System Info:\n');
  for (const [label, f] of [
    ['Machine ID', 'machineID'],
    ['System UUID', 'systemUUID'],
    ['Boot ID', 'bootID'],
    ['Kernel Version', 'kernelVersion'],
    ['OS Image', 'osImage'],
    ['Operating System', 'operatingSystem'],
    ['Architecture', 'architecture'],
    ['Container Runtime Version', 'containerRuntimeVersion'],
    ['Kubelet Version', 'kubeletVersion'],
    ['Kube-Proxy Version', 'kubeProxyVersion'],
  ])
    w.write(0, `  ${label}:\t${ni[f] ?? ''}\n`);
  if (node.spec?.podCIDR) w.write(0, `PodCIDR:\t${node.spec.podCIDR}\n`);
  if (node.spec?.podCIDRs?.length) w.write(0, `PodCIDRs:\t${node.spec.podCIDRs.join(',')}\n`);
  if (node.spec?.providerID) w.write(0, `ProviderID:\t${node.spec.providerID}\n`);
  const pods = ctx.client
    .resource('', 'pods')
    .list(undefined, { fieldSelector: `spec.nodeName=${node.metadata.name}`, quiet: true })
    .items.filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed')
    .sort((a, b) => `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace}/${b.metadata.name}`));
  const alloc: Record<string, string> = Object.keys(st.allocatable ?? {}).length ? st.allocatable : (st.capacity ?? {});
  const allocOf = (r: string): number => (r === 'cpu' ? cpuMillis(alloc.cpu ?? '0') : bytesOf(alloc[r] ?? '0'));
  const pct = (v: number, r: string): number => (allocOf(r) ? Math.trunc((v / allocOf(r)) * 100) : 0);
  w.write(0, `Non-terminated Pods:\t(${pods.length} in total)\n`);
  w.write(1, 'Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
  w.write(1, '---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n');
  const tot = { requests: { cpu: 0, memory: 0, 'ephemeral-storage': 0 }, limits: { cpu: 0, memory: 0, 'ephemeral-storage': 0 } };
  for (const p of pods) {
    const req = podRequests(p, 'requests');
    const lim = podRequests(p, 'limits');
    for (const r of ['cpu', 'memory', 'ephemeral-storage'] as const) {
      tot.requests[r] += req[r];
      tot.limits[r] += lim[r];
    }
    const cell = (v: number, r: string): string => `${qty(r, v)} (${pct(v, r)}%)`;
    w.write(
      1,
      `${p.metadata.namespace}\t${p.metadata.name}\t\t${cell(req.cpu, 'cpu')}\t${cell(lim.cpu, 'cpu')}\t${cell(req.memory, 'memory')}\t${cell(lim.memory, 'memory')}\t${since(p.metadata.creationTimestamp, ctx.nowMs)}\n`,
    );
  }
  w.write(0, 'Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n');
  w.write(1, 'Resource\tRequests\tLimits\n');
  w.write(1, '--------\t--------\t------\n');
  for (const r of ['cpu', 'memory', 'ephemeral-storage'] as const) {
    w.write(1, `${r}\t${qty(r, tot.requests[r])} (${pct(tot.requests[r], r)}%)\t${qty(r, tot.limits[r])} (${pct(tot.limits[r], r)}%)\n`);
  }
  for (const r of Object.keys(alloc)
    .filter((k) => k.startsWith('hugepages-'))
    .sort())
    w.write(1, `${r}\t0 (0%)\t0 (0%)\n`);
  describeEvents(w, nodeEvents(d.events, node), ctx.nowMs);
  return w.toString();
}

function describeDeployment(dep: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  const st = dep.status ?? {};
  w.write(0, `Name:\t${dep.metadata.name}\n`);
  w.write(0, `Namespace:\t${dep.metadata.namespace}\n`);
  w.write(0, `CreationTimestamp:\t${rfc1123z(dep.metadata.creationTimestamp)}\n`);
  printLabelsMultiline(w, 'Labels', dep.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', dep.metadata.annotations);
  w.write(0, `Selector:\t${formatLabelSelector(dep.spec?.selector).replace('<none>', '')}\n`);
  w.write(
    0,
    `Replicas:\t${dep.spec?.replicas ?? 1} desired | ${st.updatedReplicas ?? 0} updated | ${st.replicas ?? 0} total | ${st.availableReplicas ?? 0} available | ${st.unavailableReplicas ?? 0} unavailable\n`,
  );
  w.write(0, `StrategyType:\t${dep.spec?.strategy?.type ?? ''}\n`);
  w.write(0, `MinReadySeconds:\t${dep.spec?.minReadySeconds ?? 0}\n`);
  const ru = dep.spec?.strategy?.rollingUpdate;
  if (ru) w.write(0, `RollingUpdateStrategy:\t${ru.maxUnavailable ?? '25%'} max unavailable, ${ru.maxSurge ?? '25%'} max surge\n`);
  describePodTemplate(dep.spec?.template ?? {}, w);
  if (st.conditions?.length) {
    w.write(0, 'Conditions:\n  Type\tStatus\tReason\n');
    w.write(1, '----\t------\t------\n');
    for (const c of st.conditions) w.write(1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
  }
  const rss = ownedReplicaSets(d.ctx, dep).sort(
    (a, b) =>
      (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
      a.metadata.name.localeCompare(b.metadata.name),
  );
  const tmpl = JSON.stringify(stripHash(dep.spec?.template));
  const newRS = rss.find((rs) => JSON.stringify(stripHash(rs.spec?.template)) === tmpl);
  const old = rss.filter((rs) => rs !== newRS);
  const fmt = (l: KObject[]): string =>
    l.map((rs) => `${rs.metadata.name} (${rs.status?.replicas ?? 0}/${rs.spec?.replicas ?? 0} replicas created)`).join(', ') || '<none>';
  if (rss.length) {
    w.write(0, `OldReplicaSets:\t${fmt(old)}\n`);
    w.write(0, `NewReplicaSet:\t${fmt(newRS ? [newRS] : [])}\n`);
  }
  describeEvents(w, eventsFor(d.events, dep), d.ctx.nowMs);
  return w.toString();
}

function stripHash(t: KObject | undefined): unknown {
  if (!t) return t;
  const c = JSON.parse(JSON.stringify(t));
  if (c.metadata?.labels) delete c.metadata.labels['pod-template-hash'];
  return c;
}

function describeReplicaSet(rs: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  const pods = d.ctx.client
    .resource('', 'pods')
    .list(rs.metadata.namespace, { quiet: true })
    .items.filter((p) => (p.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === rs.metadata.uid));
  const count = (ph: string): number => pods.filter((p) => p.status?.phase === ph).length;
  w.write(0, `Name:\t${rs.metadata.name}\n`);
  w.write(0, `Namespace:\t${rs.metadata.namespace}\n`);
  w.write(0, `Selector:\t${formatLabelSelector(rs.spec?.selector)}\n`);
  printLabelsMultiline(w, 'Labels', rs.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', rs.metadata.annotations);
  const ctl = controllerOf(rs);
  if (ctl) w.write(0, `Controlled By:\t${ctl}\n`);
  w.write(0, `Replicas:\t${rs.status?.replicas ?? 0} current / ${rs.spec?.replicas ?? 0} desired\n`);
  w.write(
    0,
    `Pods Status:\t${count('Running')} Running / ${count('Pending')} Waiting / ${count('Succeeded')} Succeeded / ${count('Failed')} Failed\n`,
  );
  describePodTemplate(rs.spec?.template ?? {}, w);
  if (rs.status?.conditions?.length) {
    w.write(0, 'Conditions:\n  Type\tStatus\tReason\n');
    w.write(1, '----\t------\t------\n');
    for (const c of rs.status.conditions) w.write(1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
  }
  describeEvents(w, eventsFor(d.events, rs), d.ctx.nowMs);
  return w.toString();
}

function describeService(svc: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  const sp = svc.spec ?? {};
  const slices = d.ctx.client
    .resource('discovery.k8s.io', 'endpointslices')
    .list(svc.metadata.namespace, { labelSelector: `kubernetes.io/service-name=${svc.metadata.name}`, quiet: true })
    .items.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  w.write(0, `Name:\t${svc.metadata.name}\n`);
  w.write(0, `Namespace:\t${svc.metadata.namespace}\n`);
  printLabelsMultiline(w, 'Labels', svc.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', svc.metadata.annotations);
  w.write(0, `Selector:\t${formatLabels(sp.selector).replace('<none>', '')}\n`);
  w.write(0, `Type:\t${sp.type ?? 'ClusterIP'}\n`);
  if (sp.ipFamilyPolicy) w.write(0, `IP Family Policy:\t${sp.ipFamilyPolicy}\n`);
  w.write(0, `IP Families:\t${sp.ipFamilies?.length ? sp.ipFamilies.join(',') : '<none>'}\n`);
  w.write(0, `IP:\t${sp.clusterIP ?? ''}\n`);
  if (sp.clusterIPs?.length) w.write(0, `IPs:\t${sp.clusterIPs.join(',')}\n`);
  if (sp.externalIPs?.length) w.write(0, `External IPs:\t${sp.externalIPs.join(',')}\n`);
  if (sp.externalName) w.write(0, `External Name:\t${sp.externalName}\n`);
  const ing: KObject[] = svc.status?.loadBalancer?.ingress ?? [];
  if (ing.length) w.write(0, `LoadBalancer Ingress:\t${ing.map((i) => i.ip || i.hostname).join(', ')}\n`);
  for (const p of sp.ports ?? []) {
    const name = p.name || '<unset>';
    const proto = p.protocol ?? 'TCP';
    w.write(0, `Port:\t${name}\t${p.port}/${proto}\n`);
    w.write(0, `TargetPort:\t${p.targetPort ?? p.port}/${proto}\n`);
    if (p.nodePort) w.write(0, `NodePort:\t${name}\t${p.nodePort}/${proto}\n`);
    w.write(0, `Endpoints:\t${formatSliceEndpoints(slices, p.name ?? '')}\n`);
  }
  w.write(0, `Session Affinity:\t${sp.sessionAffinity ?? 'None'}\n`);
  if (sp.externalTrafficPolicy) w.write(0, `External Traffic Policy:\t${sp.externalTrafficPolicy}\n`);
  if (sp.internalTrafficPolicy) w.write(0, `Internal Traffic Policy:\t${sp.internalTrafficPolicy}\n`);
  if (sp.healthCheckNodePort) w.write(0, `HealthCheck NodePort:\t${sp.healthCheckNodePort}\n`);
  describeEvents(w, eventsFor(d.events, svc), d.ctx.nowMs);
  return w.toString();
}

export function formatSliceEndpoints(slices: KObject[], portName: string): string {
  if (!slices.length) return '<none>';
  const list: string[] = [];
  let count = 0;
  for (const s of slices) {
    for (const port of (s.ports ?? []) as KObject[]) {
      if ((port.name ?? '') !== portName) continue;
      for (const e of (s.endpoints ?? []) as KObject[]) {
        if (e.conditions?.ready === false) continue;
        for (const a of e.addresses ?? []) {
          count++;
          if (list.length < 3) list.push(`${a}:${port.port}`);
        }
      }
    }
  }
  return list.join(',') + (count > 3 ? ` + ${count - 3} more...` : '');
}

/** smartLabelFor: "creationTimestamp" → "Creation Timestamp", "apiVersion" → "API Version". */
export function smartLabel(field: string): string {
  if (/[^A-Za-z-]/.test(field)) return field;
  const parts = field.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|-/g) ?? [field];
  return parts
    .map((p) => (['API', 'URL', 'UID', 'OSB', 'GUID'].includes(p.toUpperCase()) ? p.toUpperCase() : p[0].toUpperCase() + p.slice(1)))
    .join(' ');
}

function printUnstructured(w: PrefixWriter, level: number, content: Record<string, unknown>, prefix: string, skip: string[]): void {
  for (const field of Object.keys(content).sort()) {
    const v = content[field];
    const expr = `${prefix}.${field}`;
    if (skip.includes(expr)) continue;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      w.write(level, `${smartLabel(field)}:\n`);
      printUnstructured(w, level + 1, v as Record<string, unknown>, expr, skip);
    } else if (Array.isArray(v)) {
      w.write(level, `${smartLabel(field)}:\n`);
      for (const c of v) {
        if (c && typeof c === 'object' && !Array.isArray(c)) printUnstructured(w, level + 1, c as Record<string, unknown>, expr, skip);
        else w.write(level + 1, `${String(c)}\n`);
      }
    } else w.write(level, `${smartLabel(field)}:\t${v === null ? '<nil>' : String(v)}\n`);
  }
}

function describeGeneric(obj: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${obj.metadata.name}\n`);
  w.write(0, `Namespace:\t${obj.metadata.namespace ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', obj.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', obj.metadata.annotations);
  const content = JSON.parse(JSON.stringify(obj));
  if (content.metadata) delete content.metadata.managedFields;
  printUnstructured(w, 0, content, '', ['.metadata.name', '.metadata.namespace', '.metadata.labels', '.metadata.annotations']);
  describeEvents(w, eventsFor(d.events, obj), d.ctx.nowMs);
  return w.toString();
}

/** Runs `kubectl describe`. */
export function runDescribe(ctx: Ctx): KubectlResult {
  if (!ctx.args.length)
    return fail(
      'error: You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.',
    );
  const targets = resolveTargets(ctx.client, ctx.args);
  const allNs = ctx.flags.has('all-namespaces');
  const events = ctx.client.resource('', 'events').list(undefined, { quiet: true }).items;
  const env: DescribeEnv = { ctx, events };
  const errors: string[] = [];
  const docs: string[] = [];
  for (const t of targets) {
    const rc = ctx.client.resource(t.info.group, t.info.resource);
    const ns = t.info.namespaced ? ctx.namespace : '';
    let objs: KObject[] = [];
    if (t.names.length) {
      for (const n of t.names) {
        const r = tryStatus(() => rc.get(ns, n, { quiet: true }));
        if (r.value) objs.push(r.value);
        else {
          // describe falls back to a prefix match (describe.go: DescribeMatchingResources)
          const pref = rc.list(ns || undefined, { quiet: true }).items.filter((o) => o.metadata.name.startsWith(n));
          if (pref.length) objs.push(...pref.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)));
          else errors.push(r.error!);
        }
      }
    } else {
      objs = rc
        .list(t.info.namespaced && !allNs ? ns : undefined, { labelSelector: ctx.flags.get('selector'), quiet: true })
        .items.sort((a, b) =>
          `${a.metadata.namespace ?? ''}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace ?? ''}/${b.metadata.name}`),
        );
    }
    for (const o of objs) {
      switch (o.kind) {
        case 'Pod':
          docs.push(describePod(o, eventsFor(events, o), ctx.nowMs));
          break;
        case 'Node':
          docs.push(describeNode(o, env));
          break;
        case 'Deployment':
          docs.push(describeDeployment(o, env));
          break;
        case 'ReplicaSet':
          docs.push(describeReplicaSet(o, env));
          break;
        case 'Service':
          docs.push(describeService(o, env));
          break;
        case 'PersistentVolumeClaim':
          docs.push(describePersistentVolumeClaim(o, env));
          break;
        case 'PersistentVolume':
          docs.push(describePersistentVolume(o, env));
          break;
        case 'StatefulSet':
          docs.push(describeStatefulSet(o, env));
          break;
        case 'Namespace':
          docs.push(describeNamespace(o, env));
          break;
        case 'Ingress':
          docs.push(describeIngress(o, env, formatSliceEndpoints));
          break;
        default:
          docs.push((getOwn(DESCRIBERS, o.kind) ?? describeGeneric)(o, env));
      }
    }
  }
  if (!docs.length && !errors.length) return { output: '', error: `No resources found in ${ctx.namespace} namespace.\n`, exitCode: 0 };
  return { output: docs.join('\n\n'), error: stderrOf(errors), exitCode: errors.length ? 1 : 0 };
}

/**
 * Unknown-field detection for server-side field validation (`kubectl apply --validate=
 * strict|warn`, KEP-2885), over the most used parts of the k8s.io/api schemas (the field
 * names of kubernetes-types v1.30). Paths print as the apiserver's strict decoder prints
 * them: `spec.template.spec.containers[0].imagePullPolcy`. Structures not described here
 * are not checked.
 */

type Spec = { [field: string]: string | null };

const S = (fields: string, nested: Record<string, string> = {}): Spec => {
  const out: Spec = {};
  for (const f of fields.split(/\s+/).filter(Boolean)) out[f] = null;
  return { ...out, ...nested };
};

const TYPES: Record<string, Spec> = {
  ObjectMeta: S('name generateName namespace labels annotations uid resourceVersion generation creationTimestamp deletionTimestamp deletionGracePeriodSeconds finalizers ownerReferences managedFields selfLink'),
  PodTemplateSpec: S('', { metadata: 'ObjectMeta', spec: 'PodSpec' }),
  PodSpec: S(
    'volumes ephemeralContainers restartPolicy terminationGracePeriodSeconds activeDeadlineSeconds dnsPolicy nodeSelector serviceAccountName serviceAccount automountServiceAccountToken nodeName hostNetwork hostPID hostIPC shareProcessNamespace securityContext imagePullSecrets hostname subdomain affinity schedulerName tolerations hostAliases priorityClassName priority dnsConfig readinessGates runtimeClassName enableServiceLinks preemptionPolicy overhead topologySpreadConstraints setHostnameAsFQDN os hostUsers schedulingGates resourceClaims resources',
    { containers: 'Container[]', initContainers: 'Container[]' },
  ),
  Container: S(
    'name image command args workingDir envFrom env resources resizePolicy restartPolicy volumeMounts volumeDevices lifecycle terminationMessagePath terminationMessagePolicy imagePullPolicy securityContext stdin stdinOnce tty',
    { ports: 'ContainerPort[]', livenessProbe: 'Probe', readinessProbe: 'Probe', startupProbe: 'Probe' },
  ),
  ContainerPort: S('name hostPort containerPort protocol hostIP'),
  Probe: S('exec httpGet tcpSocket grpc initialDelaySeconds timeoutSeconds periodSeconds successThreshold failureThreshold terminationGracePeriodSeconds'),
  DeploymentSpec: S('replicas selector strategy minReadySeconds revisionHistoryLimit paused progressDeadlineSeconds', { template: 'PodTemplateSpec' }),
  ReplicaSetSpec: S('replicas minReadySeconds selector', { template: 'PodTemplateSpec' }),
  StatefulSetSpec: S('replicas selector volumeClaimTemplates serviceName podManagementPolicy updateStrategy revisionHistoryLimit minReadySeconds persistentVolumeClaimRetentionPolicy ordinals', { template: 'PodTemplateSpec' }),
  DaemonSetSpec: S('selector updateStrategy minReadySeconds revisionHistoryLimit', { template: 'PodTemplateSpec' }),
  JobSpec: S('parallelism completions activeDeadlineSeconds podFailurePolicy successPolicy backoffLimit backoffLimitPerIndex maxFailedIndexes selector manualSelector ttlSecondsAfterFinished completionMode suspend podReplacementPolicy managedBy', { template: 'PodTemplateSpec' }),
  ServiceSpec: S('selector clusterIP clusterIPs type externalIPs sessionAffinity loadBalancerIP loadBalancerSourceRanges externalName externalTrafficPolicy healthCheckNodePort publishNotReadyAddresses sessionAffinityConfig ipFamilies ipFamilyPolicy allocateLoadBalancerNodePorts loadBalancerClass internalTrafficPolicy trafficDistribution', { ports: 'ServicePort[]' }),
  ServicePort: S('name protocol appProtocol port targetPort nodePort'),
};

const TOP: Record<string, Spec> = {
  Pod: S('apiVersion kind status', { metadata: 'ObjectMeta', spec: 'PodSpec' }),
  Deployment: S('apiVersion kind status', { metadata: 'ObjectMeta', spec: 'DeploymentSpec' }),
  ReplicaSet: S('apiVersion kind status', { metadata: 'ObjectMeta', spec: 'ReplicaSetSpec' }),
  StatefulSet: S('apiVersion kind status', { metadata: 'ObjectMeta', spec: 'StatefulSetSpec' }),
  DaemonSet: S('apiVersion kind status', { metadata: 'ObjectMeta', spec: 'DaemonSetSpec' }),
  Job: S('apiVersion kind status', { metadata: 'ObjectMeta', spec: 'JobSpec' }),
  Service: S('apiVersion kind status', { metadata: 'ObjectMeta', spec: 'ServiceSpec' }),
  ConfigMap: S('apiVersion kind data binaryData immutable', { metadata: 'ObjectMeta' }),
  Secret: S('apiVersion kind data stringData type immutable', { metadata: 'ObjectMeta' }),
  Namespace: S('apiVersion kind spec status', { metadata: 'ObjectMeta' }),
  ServiceAccount: S('apiVersion kind secrets imagePullSecrets automountServiceAccountToken', { metadata: 'ObjectMeta' }),
};

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Paths of fields the schema does not know (plus any `__proto__`-like key anywhere). */
export function unknownFields(kind: string, obj: unknown): string[] {
  const out: string[] = [];
  const top = TOP[kind];
  walk(obj, top ?? null, '', out);
  return out;
}

function walk(v: unknown, spec: Spec | null, path: string, out: string[]): void {
  if (Array.isArray(v)) return;
  if (!v || typeof v !== 'object') return;
  for (const k of Object.keys(v)) {
    const p = path ? `${path}.${k}` : k;
    const child = (v as Record<string, unknown>)[k];
    if (FORBIDDEN_KEYS.has(k)) {
      out.push(p);
      continue;
    }
    if (spec) {
      if (!Object.prototype.hasOwnProperty.call(spec, k)) {
        out.push(p);
        continue;
      }
      const t = spec[k];
      if (t && t.endsWith('[]')) {
        const et = TYPES[t.slice(0, -2)];
        if (Array.isArray(child)) child.forEach((e, i) => walk(e, et, `${p}[${i}]`, out));
        continue;
      }
      walk(child, t ? TYPES[t] : null, p, out);
    } else {
      walkForbidden(child, p, out);
    }
  }
}

function walkForbidden(v: unknown, path: string, out: string[]): void {
  if (Array.isArray(v)) {
    v.forEach((e, i) => walkForbidden(e, `${path}[${i}]`, out));
    return;
  }
  if (!v || typeof v !== 'object') return;
  for (const k of Object.keys(v)) {
    const p = `${path}.${k}`;
    if (FORBIDDEN_KEYS.has(k)) out.push(p);
    else walkForbidden((v as Record<string, unknown>)[k], p, out);
  }
}

/** Removes the given paths from the object (what the decoder drops with Warn/Ignore). */
export function dropFields(obj: Record<string, unknown>, paths: string[]): void {
  for (const p of paths) {
    const parts = p.match(/[^.[\]]+|\[\d+\]/g) ?? [];
    let cur: any = obj;
    for (let i = 0; i < parts.length - 1 && cur; i++) {
      const part = parts[i];
      cur = part.startsWith('[') ? cur[Number(part.slice(1, -1))] : cur[part];
    }
    const last = parts[parts.length - 1];
    if (cur && typeof cur === 'object' && last) delete cur[last];
  }
}

/**
 * The dedicated describers of staging/src/k8s.io/kubectl/pkg/describe/describe.go for
 * ConfigMap (ConfigMapDescriber), Secret (describeSecret: sizes only, no events),
 * StorageClass (describeStorageClass with printAllowedTopologies), EndpointSlice
 * (describeEndpointSliceV1), Endpoints (describeEndpoints), IngressClass
 * (describeIngressClassV1), ServiceAccount (ServiceAccountDescriber), PriorityClass
 * (describePriorityClass) and RoleBinding / ClusterRoleBinding. Go iterates the data maps of
 * ConfigMaps and Secrets in random order; kube-relay prints their keys sorted. Checked
 * against real kubectl v1.32 in src/server/testdata/describe.txt.
 */
import type { KObject } from '../../api/types';
import { formatLabels } from '../table';
import { PrefixWriter, base64Length, describeEvents, eventsFor, printAnnotationsMultiline, printLabelsMultiline } from './describe-util';
import type { DescribeEnv } from './describe-storage';

function header(w: PrefixWriter, obj: KObject, namespaced = true): void {
  w.write(0, `Name:\t${obj.metadata.name}\n`);
  if (namespaced) w.write(0, `Namespace:\t${obj.metadata.namespace ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', obj.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', obj.metadata.annotations);
}

/** ConfigMapDescriber: "Data\n====" with each value under "key:\n----", then "BinaryData\n====" with sizes. */
export function describeConfigMap(cm: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  header(w, cm);
  w.write(0, '\nData\n====\n');
  const data: Record<string, string> = cm.data ?? {};
  for (const k of Object.keys(data).sort()) {
    w.write(0, `${k}:\n----\n`);
    w.write(0, `${data[k]}\n`);
    w.write(0, '\n');
  }
  w.write(0, '\nBinaryData\n====\n');
  const bin: Record<string, string> = cm.binaryData ?? {};
  for (const k of Object.keys(bin).sort()) w.write(0, `${k}: ${base64Length(bin[k])} bytes\n`);
  w.write(0, '\n');
  describeEvents(w, eventsFor(d.events, cm), d.ctx.nowMs);
  return w.toString();
}

/** describeSecret: the type and each key's size in bytes (a service-account token is shown). */
export function describeSecret(secret: KObject): string {
  const w = new PrefixWriter();
  header(w, secret);
  w.write(0, `\nType:\t${secret.type ?? ''}\n`);
  w.write(0, '\nData\n====\n');
  const data: Record<string, string> = secret.data ?? {};
  for (const k of Object.keys(data).sort()) {
    if (k === 'token' && secret.type === 'kubernetes.io/service-account-token') w.write(0, `${k}:\t${atobText(data[k])}\n`);
    else w.write(0, `${k}:\t${base64Length(data[k])} bytes\n`);
  }
  return w.toString();
}

/** Standard base64 → text (a service-account token is ASCII). */
function atobText(b64: string): string {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let bits = 0;
  let acc = 0;
  let out = '';
  for (const ch of b64.replace(/[=\s]/g, '')) {
    acc = (acc << 6) | abc.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((acc >> bits) & 0xff);
    }
  }
  return out;
}

/** storageutil.IsDefaultAnnotationText: "Yes" when either is-default-class annotation is "true". */
function isDefaultClassText(sc: KObject): string {
  const a = sc.metadata.annotations ?? {};
  return a['storageclass.kubernetes.io/is-default-class'] === 'true' || a['storageclass.beta.kubernetes.io/is-default-class'] === 'true'
    ? 'Yes'
    : 'No';
}

/** describeStorageClass (Annotations as labels.FormatLabels, last-applied-configuration included). */
export function describeStorageClass(sc: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${sc.metadata.name}\n`);
  w.write(0, `IsDefaultClass:\t${isDefaultClassText(sc)}\n`);
  w.write(0, `Annotations:\t${formatLabels(sc.metadata.annotations)}\n`);
  w.write(0, `Provisioner:\t${sc.provisioner ?? ''}\n`);
  w.write(0, `Parameters:\t${formatLabels(sc.parameters)}\n`);
  w.write(
    0,
    `AllowVolumeExpansion:\t${sc.allowVolumeExpansion === undefined || sc.allowVolumeExpansion === null ? '<unset>' : sc.allowVolumeExpansion ? 'True' : 'False'}\n`,
  );
  const opts: string[] = sc.mountOptions ?? [];
  if (!opts.length) w.write(0, 'MountOptions:\t<none>\n');
  else {
    w.write(0, 'MountOptions:\n');
    for (const o of opts) w.write(1, `${o}\n`);
  }
  if (sc.reclaimPolicy) w.write(0, `ReclaimPolicy:\t${sc.reclaimPolicy}\n`);
  if (sc.volumeBindingMode) w.write(0, `VolumeBindingMode:\t${sc.volumeBindingMode}\n`);
  if (sc.allowedTopologies) {
    const terms: KObject[] = sc.allowedTopologies;
    w.write(0, `AllowedTopologies:\t${terms.length ? '' : '<none>'}\n`);
    terms.forEach((term, i) => {
      const reqs: KObject[] = term.matchLabelExpressions ?? [];
      w.write(1, `Term ${i}:\t`);
      if (!reqs.length) return w.write(0, '<none>\n');
      reqs.forEach((r, j) => {
        if (j) w.write(1, '\t');
        w.write(0, `${r.key} in${r.values?.length ? ` [${r.values.join(', ')}]` : ''}\n`);
      });
    });
  }
  describeEvents(w, eventsFor(d.events, sc), d.ctx.nowMs);
  return w.toString();
}

/** describeEndpointSliceV1. */
export function describeEndpointSlice(eps: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  header(w, eps);
  w.write(0, `AddressType:\t${eps.addressType ?? ''}\n`);
  const ports: KObject[] = eps.ports ?? [];
  if (!ports.length) w.write(0, 'Ports: <unset>\n');
  else {
    w.write(0, 'Ports:\n');
    w.write(1, 'Name\tPort\tProtocol\n');
    w.write(1, '----\t----\t--------\n');
    for (const p of ports) w.write(1, `${p.name || '<unset>'}\t${p.port ?? '<unset>'}\t${p.protocol ?? ''}\n`);
  }
  const eps2: KObject[] = eps.endpoints ?? [];
  if (!eps2.length) w.write(0, 'Endpoints: <none>\n');
  else {
    w.write(0, 'Endpoints:\n');
    for (const e of eps2) {
      w.write(1, `- Addresses:\t${(e.addresses ?? []).join(', ') || '<none>'}\n`);
      w.write(2, 'Conditions:\n');
      w.write(3, `Ready:\t${e.conditions?.ready === undefined || e.conditions?.ready === null ? '<unset>' : String(e.conditions.ready)}\n`);
      w.write(2, `Hostname:\t${e.hostname ?? '<unset>'}\n`);
      if (e.targetRef) w.write(2, `TargetRef:\t${e.targetRef.kind ?? ''}/${e.targetRef.name ?? ''}\n`);
      w.write(2, `NodeName:\t${e.nodeName ?? '<unset>'}\n`);
      w.write(2, `Zone:\t${e.zone ?? '<unset>'}\n`);
    }
  }
  describeEvents(w, eventsFor(d.events, eps), d.ctx.nowMs);
  return w.toString();
}

/** describeEndpoints: one block per subset. */
export function describeEndpoints(ep: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  header(w, ep);
  w.write(0, 'Subsets:\n');
  for (const s of (ep.subsets ?? []) as KObject[]) {
    w.write(1, `Addresses:\t${(s.addresses ?? []).map((a: KObject) => a.ip).join(',') || '<none>'}\n`);
    w.write(1, `NotReadyAddresses:\t${(s.notReadyAddresses ?? []).map((a: KObject) => a.ip).join(',') || '<none>'}\n`);
    if (s.ports?.length) {
      w.write(1, 'Ports:\n');
      w.write(2, 'Name\tPort\tProtocol\n');
      w.write(2, '----\t----\t--------\n');
      for (const p of s.ports as KObject[]) w.write(2, `${p.name || '<unset>'}\t${p.port}\t${p.protocol ?? ''}\n`);
    }
    w.write(0, '\n');
  }
  describeEvents(w, eventsFor(d.events, ep), d.ctx.nowMs);
  return w.toString();
}

/** describeIngressClassV1. */
export function describeIngressClass(ic: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  header(w, ic, false);
  w.write(0, `Controller:\t${ic.spec?.controller ?? ''}\n`);
  const p = ic.spec?.parameters;
  if (p) {
    w.write(0, 'Parameters:\n');
    if (p.apiGroup !== undefined && p.apiGroup !== null) w.write(1, `APIGroup:\t${p.apiGroup}\n`);
    w.write(1, `Kind:\t${p.kind ?? ''}\n`);
    w.write(1, `Name:\t${p.name ?? ''}\n`);
  }
  describeEvents(w, eventsFor(d.events, ic), d.ctx.nowMs);
  return w.toString();
}

/**
 * ServiceAccountDescriber: image pull, mountable and token secrets (headers sorted), a secret
 * missing from the namespace marked "(not found)".
 */
export function describeServiceAccount(sa: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  header(w, sa);
  const secrets = d.ctx.client.resource('', 'secrets').list(sa.metadata.namespace, { quiet: true }).items;
  const existing = new Set(secrets.map((s) => s.metadata.name));
  const tokens = secrets
    .filter(
      (s) =>
        s.type === 'kubernetes.io/service-account-token' &&
        s.metadata.annotations?.['kubernetes.io/service-account.name'] === sa.metadata.name &&
        s.metadata.annotations?.['kubernetes.io/service-account.uid'] === sa.metadata.uid,
    )
    .map((s) => s.metadata.name);
  const missing = new Set(
    [...(sa.secrets ?? []), ...(sa.imagePullSecrets ?? [])].map((s: KObject) => s.name).filter((n: string) => !existing.has(n)),
  );
  const groups: [string, string[]][] = [
    ['Image pull secrets:', (sa.imagePullSecrets ?? []).map((s: KObject) => s.name)],
    ['Mountable secrets: ', (sa.secrets ?? []).map((s: KObject) => s.name)],
    ['Tokens:            ', tokens],
  ];
  for (const [title, names] of groups) {
    if (!names.length) {
      w.write(0, `${title}\t<none>\n`);
      continue;
    }
    names.forEach((n, i) => w.write(0, `${i ? '                   ' : title}\t${n}${missing.has(n) ? ' (not found)' : ''}\n`));
  }
  describeEvents(w, eventsFor(d.events, sa), d.ctx.nowMs);
  return w.toString();
}

/** describePriorityClass. */
export function describePriorityClass(pc: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${pc.metadata.name}\n`);
  w.write(0, `Value:\t${pc.value ?? 0}\n`);
  w.write(0, `GlobalDefault:\t${Boolean(pc.globalDefault)}\n`);
  w.write(0, `PreemptionPolicy:\t${pc.preemptionPolicy ?? ''}\n`);
  w.write(0, `Description:\t${pc.description ?? ''}\n`);
  w.write(0, `Annotations:\t${formatLabels(pc.metadata.annotations)}\n`);
  describeEvents(w, eventsFor(d.events, pc), d.ctx.nowMs);
  return w.toString();
}

/** RoleBindingDescriber / ClusterRoleBindingDescriber (no events). */
export function describeRoleBinding(rb: KObject): string {
  const w = new PrefixWriter();
  header(w, rb, false);
  w.write(0, 'Role:\n');
  w.write(1, `Kind:\t${rb.roleRef?.kind ?? ''}\n`);
  w.write(1, `Name:\t${rb.roleRef?.name ?? ''}\n`);
  w.write(0, 'Subjects:\n');
  w.write(1, 'Kind\tName\tNamespace\n');
  w.write(1, '----\t----\t---------\n');
  for (const s of (rb.subjects ?? []) as KObject[]) w.write(1, `${s.kind ?? ''}\t${s.name ?? ''}\t${s.namespace ?? ''}\n`);
  return w.toString();
}

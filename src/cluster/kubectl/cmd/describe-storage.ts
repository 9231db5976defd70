/**
 * The dedicated describers of staging/src/k8s.io/kubectl/pkg/describe/describe.go for
 * PersistentVolumeClaim (describePersistentVolumeClaim / printPersistentVolumeClaim),
 * PersistentVolume (describePersistentVolume), StatefulSet (describeStatefulSet with
 * describeVolumeClaimTemplates), Namespace (describeNamespace with DescribeResourceQuotas and
 * DescribeLimitRanges) and Ingress (IngressDescriber.describeIngressV1).
 */
import type { KObject } from '../../api/types';
import { formatLabelSelector } from '../../api/labels';
import { accessModes, since } from '../table';
import { describePodTemplate } from './describe-pod';
import { PrefixWriter, describeEvents, eventsFor, printAnnotationsMultiline, printLabelsMultiline, rfc1123z } from './describe-util';
import type { Ctx } from './util';
import { limitRangeRows, quotaScopeHelp, sortedScopes } from './describe-policy';

/** What a describer needs: the kubectl context and every Event (searchEvents filters them). */
export interface DescribeEnv {
  ctx: Ctx;
  events: KObject[];
}

/** Go's %v of a []string: "[a b]", "[]" when empty. */
function goList(v: unknown[] | undefined): string {
  return `[${(v ?? []).join(' ')}]`;
}

/** storageutil.GetPersistentVolumeClaimClass / GetPersistentVolumeClass: the beta annotation wins. */
function storageClassOf(obj: KObject): string {
  return obj.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? obj.spec?.storageClassName ?? '';
}

/** "Status:" of a PV or PVC: Terminating (lasts …) while being deleted, else the phase. */
function phaseLine(obj: KObject, nowMs: number): string {
  if (obj.metadata.deletionTimestamp) {
    return `Status:\tTerminating (lasts ${since(obj.metadata.deletionTimestamp, nowMs)})\n`;
  }
  return `Status:\t${obj.status?.phase ?? ''}\n`;
}

/** printPodsMultilineWithIndent: the Pods sorted by name, one a line, or <none>. */
function printPodsMultiline(w: PrefixWriter, title: string, pods: KObject[]): void {
  w.write(0, `${title}:\t`);
  if (!pods.length) return w.write(0, '<none>\n');
  const names = pods.map((p) => p.metadata.name as string).sort();
  names.forEach((n, i) => {
    if (i) w.write(0, '\t');
    w.write(0, `${n}\n`);
  });
}

/** getPodsForPVC: Pods of the namespace mounting the claim, then owner Pods not yet listed. */
function podsForPVC(ctx: Ctx, pvc: KObject): KObject[] {
  const nsPods = ctx.client.resource('', 'pods').list(pvc.metadata.namespace, { quiet: true }).items;
  const pods: KObject[] = [];
  for (const p of nsPods) for (const v of p.spec?.volumes ?? []) if (v.persistentVolumeClaim?.claimName === pvc.metadata.name) pods.push(p);
  for (const ref of pvc.metadata.ownerReferences ?? []) {
    if (ref.kind !== 'Pod') continue;
    const owner = nsPods.find((p) => p.metadata.uid === ref.uid);
    if (owner && !pods.some((p) => p.metadata.uid === owner.metadata.uid)) pods.push(owner);
  }
  return pods;
}

/** describePersistentVolumeClaim (printPersistentVolumeClaim with isFullPVC, Used By, Conditions, Events). */
export function describePersistentVolumeClaim(pvc: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  const sp = pvc.spec ?? {};
  w.write(0, `Name:\t${pvc.metadata.name}\n`);
  w.write(0, `Namespace:\t${pvc.metadata.namespace}\n`);
  w.write(0, `StorageClass:\t${storageClassOf(pvc)}\n`);
  w.write(0, phaseLine(pvc, d.ctx.nowMs));
  w.write(0, `Volume:\t${sp.volumeName ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', pvc.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', pvc.metadata.annotations);
  w.write(0, `Finalizers:\t${goList(pvc.metadata.finalizers)}\n`);
  const bound = Boolean(sp.volumeName);
  w.write(0, `Capacity:\t${bound ? String(pvc.status?.capacity?.storage ?? '0') : ''}\n`);
  w.write(0, `Access Modes:\t${bound ? accessModes(pvc.status?.accessModes) : ''}\n`);
  if (sp.volumeMode) w.write(0, `VolumeMode:\t${sp.volumeMode}\n`);
  if (sp.dataSource) {
    w.write(0, 'DataSource:\n');
    if (sp.dataSource.apiGroup !== undefined) w.write(1, `APIGroup:\t${sp.dataSource.apiGroup}\n`);
    w.write(1, `Kind:\t${sp.dataSource.kind}\n`);
    w.write(1, `Name:\t${sp.dataSource.name}\n`);
  }
  printPodsMultiline(w, 'Used By', podsForPVC(d.ctx, pvc));
  const conds: KObject[] = pvc.status?.conditions ?? [];
  if (conds.length) {
    w.write(0, 'Conditions:\n');
    w.write(1, 'Type\tStatus\tLastProbeTime\tLastTransitionTime\tReason\tMessage\n');
    w.write(1, '----\t------\t-----------------\t------------------\t------\t-------\n');
    for (const c of conds)
      w.write(
        1,
        `${c.type} \t${c.status} \t${rfc1123z(c.lastProbeTime)} \t${rfc1123z(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`,
      );
  }
  describeEvents(w, eventsFor(d.events, pvc), d.ctx.nowMs);
  return w.toString();
}

/** printVolumeNodeAffinity with printNodeSelectorTermsMultilineWithIndent. */
function printVolumeNodeAffinity(w: PrefixWriter, affinity: KObject | undefined): void {
  w.write(0, 'Node Affinity:\t');
  if (!affinity?.required) return w.write(0, '<none>\n');
  w.write(0, '\n');
  const terms: KObject[] = affinity.required.nodeSelectorTerms ?? [];
  w.write(1, 'Required Terms:\t');
  if (!terms.length) return w.write(0, '<none>\n');
  w.write(0, '\n');
  terms.forEach((t, i) => {
    w.write(2, `Term ${i}:\t`);
    const reqs: KObject[] = t.matchExpressions ?? [];
    if (!reqs.length) return w.write(0, '<none>\n');
    reqs.forEach((r, j) => {
      if (j) w.write(2, '\t');
      let s = `${r.key} ${String(r.operator).toLowerCase()}`;
      if (r.values?.length) s += ` [${r.values.join(', ')}]`;
      w.write(0, `${s}\n`);
    });
  });
}

/** describePersistentVolume (Source: HostPath, Local, NFS, CSI; others <unknown>). */
export function describePersistentVolume(pv: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  const sp = pv.spec ?? {};
  w.write(0, `Name:\t${pv.metadata.name}\n`);
  printLabelsMultiline(w, 'Labels', pv.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', pv.metadata.annotations);
  w.write(0, `Finalizers:\t${goList(pv.metadata.finalizers)}\n`);
  w.write(0, `StorageClass:\t${storageClassOf(pv)}\n`);
  w.write(0, phaseLine(pv, d.ctx.nowMs));
  w.write(0, `Claim:\t${sp.claimRef ? `${sp.claimRef.namespace ?? ''}/${sp.claimRef.name ?? ''}` : ''}\n`);
  w.write(0, `Reclaim Policy:\t${sp.persistentVolumeReclaimPolicy ?? ''}\n`);
  w.write(0, `Access Modes:\t${accessModes(sp.accessModes)}\n`);
  if (sp.volumeMode) w.write(0, `VolumeMode:\t${sp.volumeMode}\n`);
  w.write(0, `Capacity:\t${sp.capacity?.storage ?? '0'}\n`);
  printVolumeNodeAffinity(w, sp.nodeAffinity);
  w.write(0, `Message:\t${pv.status?.message ?? ''}\n`);
  w.write(0, 'Source:\n');
  if (sp.hostPath)
    w.write(
      2,
      `Type:\tHostPath (bare host directory volume)\n    Path:\t${sp.hostPath.path}\n    HostPathType:\t${sp.hostPath.type ?? '<none>'}\n`,
    );
  else if (sp.nfs)
    w.write(
      2,
      `Type:\tNFS (an NFS mount that lasts the lifetime of a pod)\n    Server:\t${sp.nfs.server}\n    Path:\t${sp.nfs.path}\n    ReadOnly:\t${Boolean(sp.nfs.readOnly)}\n`,
    );
  else if (sp.local)
    w.write(2, `Type:\tLocalVolume (a persistent volume backed by local storage on a node)\n    Path:\t${sp.local.path}\n`);
  else if (sp.csi) {
    w.write(
      2,
      `Type:\tCSI (a Container Storage Interface (CSI) volume source)\n    Driver:\t${sp.csi.driver}\n    FSType:\t${sp.csi.fsType ?? ''}\n    VolumeHandle:\t${sp.csi.volumeHandle}\n    ReadOnly:\t${Boolean(sp.csi.readOnly)}\n`,
    );
    const attrs: Record<string, string> = sp.csi.volumeAttributes ?? {};
    const keys = Object.keys(attrs).sort();
    w.write(2, 'VolumeAttributes:\t');
    if (!keys.length) w.write(0, '<none>\n');
    keys.forEach((k, i) => {
      if (i) w.write(2, '\t');
      const line = `${k}=${attrs[k]}`;
      w.write(2, line.length > 140 ? `${line.slice(0, 140)}...\n` : `${line}\n`);
    });
  } else w.write(1, '<unknown>\n');
  describeEvents(w, eventsFor(d.events, pv), d.ctx.nowMs);
  return w.toString();
}

/** getPodStatusForController: phases of the Pods the object controls. */
export function controlledPodPhases(ctx: Ctx, owner: KObject): string {
  const pods = ctx.client
    .resource('', 'pods')
    .list(owner.metadata.namespace, { quiet: true })
    .items.filter((p) => (p.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === owner.metadata.uid));
  const count = (ph: string): number => pods.filter((p) => p.status?.phase === ph).length;
  return `${count('Running')} Running / ${count('Pending')} Waiting / ${count('Succeeded')} Succeeded / ${count('Failed')} Failed`;
}

/** describeVolumeClaimTemplates. */
function describeVolumeClaimTemplates(w: PrefixWriter, templates: KObject[] | undefined): void {
  if (!templates?.length) return w.write(0, 'Volume Claims:\t<none>\n');
  w.write(0, 'Volume Claims:\n');
  for (const pvc of templates) {
    w.write(1, `Name:\t${pvc.metadata?.name ?? ''}\n`);
    w.write(1, `StorageClass:\t${storageClassOf({ ...pvc, metadata: pvc.metadata ?? {} })}\n`);
    printLabelsMultiline(w, 'Labels', pvc.metadata?.labels, '  ');
    printLabelsMultiline(w, 'Annotations', pvc.metadata?.annotations, '  ');
    const cap = pvc.spec?.resources?.requests?.storage;
    w.write(1, `Capacity:\t${cap !== undefined ? String(cap) : '<default>'}\n`);
    w.write(1, `Access Modes:\t${goList(pvc.spec?.accessModes)}\n`);
  }
}

/** describeStatefulSet. */
export function describeStatefulSet(ss: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  const sp = ss.spec ?? {};
  w.write(0, `Name:\t${ss.metadata.name}\n`);
  w.write(0, `Namespace:\t${ss.metadata.namespace}\n`);
  w.write(0, `CreationTimestamp:\t${rfc1123z(ss.metadata.creationTimestamp)}\n`);
  w.write(0, `Selector:\t${formatLabelSelector(sp.selector)}\n`);
  printLabelsMultiline(w, 'Labels', ss.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', ss.metadata.annotations);
  w.write(0, `Replicas:\t${sp.replicas ?? 1} desired | ${ss.status?.replicas ?? 0} total\n`);
  w.write(0, `Update Strategy:\t${sp.updateStrategy?.type ?? ''}\n`);
  const ru = sp.updateStrategy?.rollingUpdate;
  if (ru && ru.partition !== undefined && ru.partition !== null) {
    w.write(1, `Partition:\t${ru.partition}\n`);
    if (ru.maxUnavailable !== undefined && ru.maxUnavailable !== null) w.write(1, `MaxUnavailable:\t${ru.maxUnavailable}\n`);
  }
  w.write(0, `Pods Status:\t${controlledPodPhases(d.ctx, ss)}\n`);
  describePodTemplate(sp.template ?? {}, w);
  describeVolumeClaimTemplates(w, sp.volumeClaimTemplates);
  describeEvents(w, eventsFor(d.events, ss), d.ctx.nowMs);
  return w.toString();
}

/** describeNamespace (no events; quotas and limit ranges of the namespace). */
export function describeNamespace(ns: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${ns.metadata.name}\n`);
  printLabelsMultiline(w, 'Labels', ns.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', ns.metadata.annotations);
  w.write(0, `Status:\t${ns.status?.phase ?? ''}\n`);
  const conds: KObject[] = ns.status?.conditions ?? [];
  if (conds.length) {
    w.write(0, 'Conditions:\n');
    w.write(1, 'Type\tStatus\tLastTransitionTime\tReason\tMessage\n');
    w.write(1, '----\t------\t------------------\t------\t-------\n');
    for (const c of conds) w.write(1, `${c.type}\t${c.status}\t${rfc1123z(c.lastTransitionTime)}\t${c.reason ?? ''}\t${c.message ?? ''}\n`);
  }
  const list = (r: string): KObject[] =>
    d.ctx.client
      .resource('', r)
      .list(ns.metadata.name, { quiet: true })
      .items.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  const quotas = list('resourcequotas');
  w.write(0, '\n');
  if (!quotas.length) w.write(0, 'No resource quota.\n');
  else {
    w.write(0, 'Resource Quotas\n');
    for (const q of quotas) {
      w.write(1, `Name:\t${q.metadata.name}\n`);
      const scopes = sortedScopes(q);
      if (scopes.length) {
        w.write(1, `Scopes:\t${scopes.join(', ')}\n`);
        for (const sc of scopes) if (quotaScopeHelp(sc)) w.write(1, `* ${quotaScopeHelp(sc)}\n`);
      }
      w.write(1, 'Resource\tUsed\tHard\n');
      w.write(1, '--------\t---\t---\n');
      const hard: Record<string, string> = q.status?.hard ?? {};
      for (const r of Object.keys(hard).sort()) w.write(1, `${r}\t${q.status?.used?.[r] ?? '0'}\t${hard[r]}\n`);
    }
  }
  const limits = list('limitranges');
  w.write(0, '\n');
  if (!limits.length) w.write(0, 'No LimitRange resource.\n');
  else {
    w.write(0, 'Resource Limits\n Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n');
    w.write(0, ' ----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n');
    for (const lr of limits) for (const row of limitRangeRows(lr, ' ')) w.write(0, row);
  }
  return w.toString();
}

/** serviceBackendStringer + IngressDescriber.describeBackendV1. */
function describeBackend(d: DescribeEnv, ns: string, backend: KObject, slicesFmt: (slices: KObject[], port: string) => string): string {
  if (backend.service) {
    const s = backend.service;
    const sb = `${s.name}:${s.port?.number ? s.port.number : (s.port?.name ?? '')}`;
    const svc = d.ctx.client.api.getObject('services', ns, s.name);
    if (!svc) return `${sb} (<error: services "${s.name}" not found>)`;
    let spName = '';
    for (const p of svc.spec?.ports ?? []) {
      if ((s.port?.number && s.port.number === p.port) || (s.port?.name && s.port.name === p.name)) spName = p.name ?? '';
    }
    const slices = d.ctx.client
      .resource('discovery.k8s.io', 'endpointslices')
      .list(ns, { labelSelector: `kubernetes.io/service-name=${s.name}`, quiet: true }).items;
    return `${sb} (${slicesFmt(slices, spName)})`;
  }
  if (backend.resource)
    return `APIGroup: ${backend.resource.apiGroup ?? '<none>'}, Kind: ${backend.resource.kind}, Name: ${backend.resource.name}`;
  return '';
}

/** IngressDescriber.describeIngressV1. */
export function describeIngress(ing: KObject, d: DescribeEnv, slicesFmt: (slices: KObject[], port: string) => string): string {
  const w = new PrefixWriter();
  const sp = ing.spec ?? {};
  const ns = ing.metadata.namespace ?? '';
  w.write(0, `Name:\t${ing.metadata.name}\n`);
  printLabelsMultiline(w, 'Labels', ing.metadata.labels);
  w.write(0, `Namespace:\t${ns}\n`);
  const lb: KObject[] = ing.status?.loadBalancer?.ingress ?? [];
  w.write(
    0,
    `Address:\t${lb
      .map((i) => i.ip || i.hostname)
      .filter(Boolean)
      .join(',')}\n`,
  );
  w.write(0, `Ingress Class:\t${sp.ingressClassName ?? '<none>'}\n`);
  const def = sp.defaultBackend ? describeBackend(d, ns, sp.defaultBackend, slicesFmt) : '<default>';
  w.write(0, `Default backend:\t${def}\n`);
  if (sp.tls?.length) {
    w.write(0, 'TLS:\n');
    for (const t of sp.tls as KObject[]) {
      if (!t.secretName) w.write(1, `SNI routes ${(t.hosts ?? []).join(',')}\n`);
      else w.write(1, `${t.secretName} terminates ${(t.hosts ?? []).join(',')}\n`);
    }
  }
  w.write(0, 'Rules:\n  Host\tPath\tBackends\n');
  w.write(1, '----\t----\t--------\n');
  let count = 0;
  for (const rule of (sp.rules ?? []) as KObject[]) {
    if (!rule.http) continue;
    count++;
    w.write(1, `${rule.host || '*'}\t\n`);
    for (const p of rule.http.paths ?? []) w.write(2, `\t${p.path ?? ''} \t${describeBackend(d, ns, p.backend ?? {}, slicesFmt)}\n`);
  }
  if (!count) w.write(1, `*\t*\t${def}\n`);
  printAnnotationsMultiline(w, 'Annotations', ing.metadata.annotations);
  describeEvents(w, eventsFor(d.events, ing), d.ctx.nowMs);
  return w.toString();
}

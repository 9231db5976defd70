/**
 * List pagination (limit / continue, as the etcd3 storage's continue tokens:
 * base64 of {"v":"meta.k8s.io/v1","rv":N,"start":"KEY\u0000"}) and the selectable fields per
 * resource (the registries' GetAttrs / ToSelectableFields and the conversion funcs'
 * field label checks: `field label not supported: X` otherwise).
 */
import type { ResourceInfo } from '../cluster/api/resources';
import type { KList, KObject } from '../cluster/api/types';
import { StatusError, newBadRequest } from '../cluster/api/errors';
import { parseFieldSelector } from '../cluster/apiserver/fields';

const COMMON = ['metadata.name', 'metadata.namespace'];
/** Extra selectable fields, by group/resource. */
const SELECTABLE: Record<string, string[]> = {
  pods: ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.podIPs', 'status.nominatedNodeName'],
  events: ['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type'],
  nodes: ['spec.unschedulable'],
  namespaces: ['status.phase'],
  secrets: ['type'],
  replicationcontrollers: ['status.replicas'],
  'replicasets.apps': ['status.replicas'],
  'jobs.batch': ['status.successful'],
  'certificatesigningrequests.certificates.k8s.io': ['spec.signerName'],
};

/** @throws StatusError 400 for a malformed selector or a field the resource does not select on. */
export function checkFieldSelector(info: ResourceInfo, text: string | undefined): void {
  if (!text) return;
  let reqs;
  try {
    reqs = parseFieldSelector(text);
  } catch (err) {
    throw newBadRequest(err instanceof Error ? err.message : String(err));
  }
  const key = info.group ? `${info.resource}.${info.group}` : info.resource;
  const ok = new Set([...COMMON, ...(SELECTABLE[key] ?? [])]);
  for (const r of reqs) {
    if (!ok.has(r.field)) {
      const gv = `${info.group}/${info.version}`; // schema.GroupVersionResource.String(): "/v1" for core
      throw newBadRequest(`Unable to find "${gv}, Resource=${info.resource}" that match label selector "", field selector "${text}": field label not supported: ${r.field}`);
    }
  }
}

function keyOf(o: KObject): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name;
}

function encodeContinue(rv: string, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: Number(rv), start: `${start}\u0000` })).toString('base64');
}

function decodeContinue(token: string): { rv: string; start: string } {
  try {
    const j = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { v: string; rv: number; start: string };
    if (j.v !== 'meta.k8s.io/v1' || typeof j.start !== 'string') throw new Error('bad');
    return { rv: String(j.rv), start: j.start.endsWith('\u0000') ? j.start.slice(0, -1) : j.start };
  } catch {
    throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'continue key is not valid: illegal base64 data at input byte 0', reason: 'BadRequest', code: 400 });
  }
}

/**
 * One page of a list: `limit` items after the `continue` token, with metadata.continue and
 * remainingItemCount when more remain. Items are ordered by namespace/name, as etcd keys are.
 */
export function listPage(list: KList, q: URLSearchParams): KList {
  const limit = Number(q.get('limit') ?? 0);
  const token = q.get('continue');
  let items = [...list.items].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  let rv = list.metadata.resourceVersion ?? '';
  if (token) {
    const c = decodeContinue(token);
    rv = c.rv;
    items = items.filter((o) => keyOf(o) > c.start);
  }
  const metadata: Record<string, unknown> = { resourceVersion: rv };
  if (limit > 0 && items.length > limit) {
    const page = items.slice(0, limit);
    metadata.continue = encodeContinue(rv, keyOf(page[page.length - 1]));
    if (!q.get('labelSelector') && !q.get('fieldSelector')) metadata.remainingItemCount = items.length - limit;
    items = page;
  }
  return { ...list, metadata: metadata as KList['metadata'], items };
}

/**
 * List pagination (limit / continue, as the etcd3 storage's continue tokens:
 * base64url, unpadded, of {"v":"meta.k8s.io/v1","rv":N,"start":"KEY\u0000"}) and the selectable fields per
 * resource (the registries' GetAttrs / ToSelectableFields and the conversion funcs'
 * field label checks: `field label not supported: X` otherwise).
 */
import type { ResourceInfo } from '../cluster/api/resources';
import type { KList, KObject } from '../cluster/api/types';
import { StatusError, newBadRequest } from '../cluster/api/errors';
import { parseFieldSelector } from '../cluster/apiserver/fields';
import { posix } from 'node:path';
import { goJSONSyntaxError } from './go-json';

const COMMON = ['metadata.name', 'metadata.namespace'];
/** Extra selectable fields, by group/resource. */
const SELECTABLE: Record<string, string[]> = {
  pods: [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.podIPs',
    'status.nominatedNodeName',
  ],
  events: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
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
      throw newBadRequest(
        `Unable to find "${gv}, Resource=${info.resource}" that match label selector "", field selector "${text}": field label not supported: ${r.field}`,
      );
    }
  }
}

function keyOf(o: KObject): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name;
}

function encodeContinue(rv: string, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: Number(rv), start: `${start}\u0000` })).toString('base64url');
}

const RAW_URL_ALPHABET = /^[A-Za-z0-9_-]$/;

/**
 * Go's base64.RawURLEncoding.DecodeString: CR/LF skipped, any other byte outside the URL-safe
 * alphabet (padding "=" included) or a lone trailing character fails at its index.
 * @throws Error `illegal base64 data at input byte N`.
 */
function decodeRawURLBase64(s: string): Buffer {
  let count = 0;
  let last = -1;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\r' || s[i] === '\n') continue;
    if (!RAW_URL_ALPHABET.test(s[i])) throw new Error(`illegal base64 data at input byte ${i}`);
    count++;
    last = i;
  }
  if (count % 4 === 1) throw new Error(`illegal base64 data at input byte ${last}`);
  return Buffer.from(s.replace(/[\r\n]/g, ''), 'base64url');
}

function invalidContinue(why: string): StatusError {
  return newBadRequest(`invalid continue token: continue key is not valid${why}`);
}

/**
 * The storage's DecodeContinue (apiserver pkg/storage/continue.go): base64url JSON
 * {"v":"meta.k8s.io/v1","rv":N,"start":"KEY"}; errors as ValidateListOptions words them.
 * @throws StatusError 400 `invalid continue token: continue key is not valid: …`.
 */
function decodeContinue(token: string): { rv: string; start: string } {
  let data: Buffer;
  try {
    data = decodeRawURLBase64(token);
  } catch (err) {
    throw invalidContinue(`: ${(err as Error).message}`);
  }
  const syntax = goJSONSyntaxError(data);
  if (syntax) throw invalidContinue(`: ${syntax}`);
  const j: unknown = JSON.parse(data.toString('utf8'));
  if (j === null || typeof j !== 'object' || Array.isArray(j))
    throw invalidContinue(
      `: json: cannot unmarshal ${Array.isArray(j) ? 'array' : typeof j === 'string' ? 'string' : typeof j === 'number' ? 'number' : 'bool'} into Go value of type storage.continueToken`,
    );
  const c = j as Record<string, unknown>;
  const typeErr = (field: string, want: string, ok: boolean) => {
    if (!ok)
      throw invalidContinue(
        `: json: cannot unmarshal ${Array.isArray(c[field]) ? 'array' : typeof c[field] === 'object' ? 'object' : typeof c[field] === 'boolean' ? 'bool' : typeof c[field]} into Go struct field continueToken.${field} of type ${want}`,
      );
  };
  typeErr('v', 'string', c.v === undefined || c.v === null || typeof c.v === 'string');
  typeErr('rv', 'int64', c.rv === undefined || c.rv === null || (typeof c.rv === 'number' && Number.isInteger(c.rv)));
  typeErr('start', 'string', c.start === undefined || c.start === null || typeof c.start === 'string');
  const v = (c.v as string | undefined) ?? '';
  if (v !== 'meta.k8s.io/v1') throw invalidContinue(`: server does not recognize this encoded version ${v}`);
  const rv = (c.rv as number | undefined) ?? 0;
  const start = (c.start as string | undefined) ?? '';
  if (rv === 0) throw invalidContinue(': incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (!start) throw invalidContinue(': encoded start key empty (version meta.k8s.io/v1)');
  const key = start.startsWith('/') ? start : `/${start}`;
  if (posix.normalize(key) !== key || (key.length > 1 && key.endsWith('/'))) throw invalidContinue(`: ${start}`);
  return { rv: String(rv), start: start.endsWith('\u0000') ? start.slice(0, -1) : start };
}

/**
 * One page of a list: `limit` items after the `continue` token, with metadata.continue and
 * remainingItemCount when more remain. Items are ordered by namespace/name, as etcd keys are.
 */
export function listPage(list: KList, q: URLSearchParams, limit = 0, token = ''): KList {
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

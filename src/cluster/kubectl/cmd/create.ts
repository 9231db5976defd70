/**
 * `kubectl create deployment|namespace|configmap|secret generic|service clusterip|nodeport|job|quota`
 * (and `token`, create-token.ts),
 * as staging/src/k8s.io/kubectl/pkg/cmd/create/create_*.go: the object each generator
 * builds (field for field, so `--dry-run=client -o yaml` prints what kubectl prints), then
 * "<kind>/<name> created" (or "(dry run)"/"(server dry run)").
 */
import type { KObject } from '../../api/types';
import { setOwn } from '../../api/safe-object';
import { toJSON, toYAML } from './output';
import { canonicalResourceQuantity, isQuantity, QUANTITY_FORMAT_ERROR } from '../../api/quantity';
import { runCreateFromFile } from './create-file';
import { runCreateToken } from './create-token';
import { fail, resolveType, seeHelp, tryStatus, typeName, type Ctx, type FlagSpec, type KubectlResult } from './util';

/** Flags of `kubectl create …`. */
export const CREATE_FLAGS: FlagSpec = {
  image: {},
  replicas: { short: 'r' },
  port: {},
  'dry-run': {},
  output: { short: 'o' },
  'from-literal': {},
  'from-file': {},
  'from-env-file': {},
  type: {},
  tcp: {},
  'node-port': {},
  'cluster-ip': {},
  from: {},
  'save-config': { bool: true },
  'field-manager': {},
  validate: {},
  'append-hash': { bool: true },
  filename: { short: 'f' },
  edit: { bool: true },
  hard: {},
  scopes: {},
  // create token
  audience: {},
  duration: {},
  'bound-object-kind': {},
  'bound-object-name': {},
  'bound-object-uid': {},
};

function literals(ctx: Ctx): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const l of ctx.multi.get('from-literal') ?? []) {
    const i = l.indexOf('=');
    if (i <= 0) return `error: invalid literal source ${l}, expected key=value`;
    setOwn(out, l.slice(0, i), l.slice(i + 1));
  }
  return out;
}

/** base64 of the UTF-8 bytes of `s` (what kubectl stores in Secret data). */
function b64(s: string): string {
  const bytes: number[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) bytes.push(cp);
    else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out +=
      A[(n >> 18) & 63] + A[(n >> 12) & 63] + (i + 1 < bytes.length ? A[(n >> 6) & 63] : '=') + (i + 2 < bytes.length ? A[n & 63] : '=');
  }
  return out;
}

function sorted(m: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.keys(m)
      .sort()
      .map((k) => [k, m[k]]),
  );
}

function build(ctx: Ctx, what: string, name: string, rest: string[]): KObject | string {
  switch (what) {
    case 'deployment':
    case 'deploy': {
      const images = ctx.multi.get('image') ?? [];
      if (!images.length) return 'error: required flag(s) "image" not set';
      const port = ctx.flags.get('port');
      const containers = images.map((img, i) => {
        const base = img
          .split('/')
          .pop()!
          .split(/[:@]/)[0]
          .replace(/[^a-z0-9-]/g, '-');
        const c: KObject = { image: img, name: images.length > 1 || i > 0 ? base : base } as unknown as KObject;
        if (port && i === 0) c.ports = [{ containerPort: Number(port) }];
        c.resources = {};
        return c;
      });
      return {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { creationTimestamp: null, labels: { app: name }, name },
        spec: {
          replicas: Number(ctx.flags.get('replicas') ?? 1),
          selector: { matchLabels: { app: name } },
          strategy: {},
          template: { metadata: { creationTimestamp: null, labels: { app: name } }, spec: { containers } },
        },
        status: {},
      } as unknown as KObject;
    }
    case 'namespace':
    case 'ns':
      return {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { creationTimestamp: null, name },
        spec: {},
        status: {},
      } as unknown as KObject;
    case 'configmap':
    case 'cm': {
      const lit = literals(ctx);
      if (typeof lit === 'string') return lit;
      const o: KObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { creationTimestamp: null, name } } as unknown as KObject;
      if (Object.keys(lit).length) o.data = sorted(lit);
      return o;
    }
    case 'secret': {
      const lit = literals(ctx);
      if (typeof lit === 'string') return lit;
      const o: KObject = { apiVersion: 'v1', kind: 'Secret', metadata: { creationTimestamp: null, name } } as unknown as KObject;
      if (Object.keys(lit).length)
        o.data = Object.fromEntries(
          Object.keys(lit)
            .sort()
            .map((k) => [k, b64(lit[k])]),
        );
      if (ctx.flags.get('type')) o.type = ctx.flags.get('type');
      return o;
    }
    case 'service-clusterip':
    case 'service-nodeport': {
      const type = what === 'service-clusterip' ? 'ClusterIP' : 'NodePort';
      const tcp = ctx.multi.get('tcp') ?? [];
      if (!tcp.length && ctx.flags.get('cluster-ip') !== 'None') return 'error: at least one tcp port specifier must be provided';
      const nodePort = ctx.flags.get('node-port');
      const ports = tcp.map((t) => {
        const [p, tp] = t.split(':');
        const port: Record<string, unknown> = { name: `${p}-${tp ?? p}` };
        if (nodePort && type === 'NodePort') port.nodePort = Number(nodePort);
        port.port = Number(p);
        port.protocol = 'TCP';
        port.targetPort = /^\d+$/.test(tp ?? p) ? Number(tp ?? p) : tp;
        return port;
      });
      const spec: Record<string, unknown> = { ports, selector: { app: name }, type };
      if (ctx.flags.get('cluster-ip')) spec.clusterIP = ctx.flags.get('cluster-ip');
      return {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { creationTimestamp: null, labels: { app: name }, name },
        spec,
        status: { loadBalancer: {} },
      } as unknown as KObject;
    }
    case 'job': {
      const image = ctx.flags.get('image');
      if (!image && !ctx.flags.get('from')) return 'error: either --image or --from must be specified';
      const c: Record<string, unknown> = {};
      if (rest.length) c.command = rest;
      c.image = image;
      c.name = name;
      c.resources = {};
      return {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { creationTimestamp: null, name },
        spec: { template: { metadata: { creationTimestamp: null }, spec: { containers: [c], restartPolicy: 'Never' } } },
        status: {},
      } as unknown as KObject;
    }
    case 'quota':
    case 'resourcequota': {
      // create_quota.go: populateResourceListV1 (k=v pairs, quantities) and parseScopes
      const hard: Record<string, string> = Object.create(null);
      const text = ctx.flags.get('hard') ?? '';
      for (const pair of text ? text.split(',') : []) {
        const i = pair.indexOf('=');
        if (i < 0 || pair.indexOf('=', i + 1) >= 0) return `error: Invalid argument syntax ${pair}, expected <resource>=<value>`;
        const v = pair.slice(i + 1);
        if (!isQuantity(v)) return `error: ${QUANTITY_FORMAT_ERROR}`;
        setOwn(hard, pair.slice(0, i), canonicalResourceQuantity(v));
      }
      const spec: Record<string, unknown> = {};
      if (Object.keys(hard).length) spec.hard = sorted(hard);
      const scopes = ctx.flags.get('scopes');
      if (scopes) spec.scopes = scopes.split(',');
      return {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { creationTimestamp: null, name },
        spec,
        status: {},
      } as unknown as KObject;
    }
  }
  return `error: Unexpected args: [${what}]\n${seeHelp('create')}`;
}

/** Runs `kubectl create <generator> NAME …`. */
export function runCreate(ctx: Ctx): KubectlResult {
  let [what, ...rest] = ctx.args;
  const file = ctx.flags.get('filename');
  if (file !== undefined && !what) return runCreateFromFile(ctx, file);
  if (!what) return fail(`error: must specify one of -f and -k\n\nerror: Required resource not specified.\n${seeHelp('create')}`);
  if (what === 'token') return runCreateToken(ctx, rest);
  const sub = what === 'service' || what === 'svc' || what === 'secret' ? rest.shift() : undefined;
  if (what === 'service' || what === 'svc') {
    if (sub !== 'clusterip' && sub !== 'nodeport') return fail(`error: Unexpected args: [${sub ?? ''}]\n${seeHelp('create service')}`);
    what = `service-${sub}`;
  } else if (what === 'secret' && sub !== 'generic') return fail(`error: Unexpected args: [${sub ?? ''}]\n${seeHelp('create secret')}`);
  const [name, ...tail] = rest;
  const cmdName = what.startsWith('service-')
    ? `create service ${sub}`
    : what === 'secret'
      ? 'create secret generic'
      : `create ${what === 'ns' ? 'namespace' : what === 'resourcequota' ? 'quota' : what}`;
  if (!name) return fail(`error: exactly one NAME is required, got 0\n${seeHelp(cmdName)}`);
  if (tail.length && what !== 'job') return fail(`error: exactly one NAME is required, got ${rest.length}\n${seeHelp(cmdName)}`);
  const obj = build(ctx, what, name, tail);
  if (typeof obj === 'string') return fail(obj);
  const dry = ctx.flags.get('dry-run');
  const out = ctx.flags.get('output');
  const info = resolveType(ctx.client, obj.kind);
  const id = `${typeName(info)}/${name}`;
  if (dry === 'client' || dry === 'true') {
    if (out === 'yaml') return { output: toYAML(obj), error: null, exitCode: 0 };
    if (out === 'json') return { output: toJSON(obj), error: null, exitCode: 0 };
    if (out === 'name') return { output: `${id}\n`, error: null, exitCode: 0 };
    return { output: `${id} created (dry run)\n`, error: null, exitCode: 0 };
  }
  const input = JSON.parse(JSON.stringify(obj));
  delete input.status;
  delete input.metadata.creationTimestamp;
  if (input.spec?.template?.metadata) delete input.spec.template.metadata.creationTimestamp;
  const ns = info.namespaced ? ctx.namespace : '';
  if (info.namespaced) input.metadata.namespace = ns;
  const r = tryStatus(() =>
    ctx.client
      .resource(info.group, info.resource)
      .create(ns, input, { dryRun: dry === 'server', fieldManager: 'kubectl-create', summary: `create ${obj.kind} ${name}` }),
  );
  if (r.error) return fail(r.error);
  if (out === 'yaml') return { output: toYAML(r.value), error: null, exitCode: 0 };
  if (out === 'json') return { output: toJSON(r.value), error: null, exitCode: 0 };
  if (out === 'name') return { output: `${id}\n`, error: null, exitCode: 0 };
  return { output: `${id} created${dry === 'server' ? ' (server dry run)' : ''}\n`, error: null, exitCode: 0 };
}

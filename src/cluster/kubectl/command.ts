/**
 * The product's kubectl subset, parsed from one command line, producing exactly what kubectl
 * v1.33 prints on stdout and stderr. Shared by the UI's kubectl bar and the scenario runner's
 * `kubectl` step.
 *
 * Supported now: get (TYPE[/NAME] [NAME…], -n, -A, -l, -o wide|name|yaml|json), scale,
 * delete, cordon, uncordon. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/{get,scale,delete,drain}.
 */
import { stringify } from 'yaml';
import type { Client } from '../client/clientset';
import { StatusError, kubectlErrorMessage } from '../api/errors';
import type { ResourceInfo } from '../api/resources';
import { deepCopy, type KObject } from '../api/types';
import { describeRow } from './printers';
import { formatTable } from './tabwriter';

export interface KubectlResult {
  /** stdout, exactly */
  output: string;
  /** stderr, or null */
  error: string | null;
  /** 0 on success, 1 on error (kubectl's exit code) */
  exitCode: number;
}

interface Parsed {
  args: string[];
  flags: Map<string, string>;
}

/** Splits a command line like a POSIX shell would for simple quoting ('…', "…"). */
export function splitArgs(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let has = false;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (/\s/.test(ch)) {
      if (cur || has) out.push(cur);
      cur = '';
      has = false;
    } else cur += ch;
  }
  if (cur || has) out.push(cur);
  return out;
}

const BOOL_FLAGS = new Set(['A', 'all-namespaces', 'w', 'watch', 'all', 'force', 'ignore-daemonsets', 'delete-emptydir-data', 'no-headers', 'show-labels', 'wait']);
const SHORT: Record<string, string> = { n: 'namespace', o: 'output', l: 'selector', A: 'all-namespaces', w: 'watch', f: 'filename' };

function parse(argv: string[]): Parsed {
  const args: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      if (eq >= 0) flags.set(name, a.slice(eq + 1));
      else if (BOOL_FLAGS.has(name)) flags.set(name, 'true');
      else flags.set(name, argv[++i] ?? '');
    } else if (a.startsWith('-') && a.length > 1) {
      const s = a.slice(1, 2);
      const name = SHORT[s] ?? s;
      if (BOOL_FLAGS.has(s) || BOOL_FLAGS.has(name)) flags.set(name, 'true');
      else if (a.length > 2) flags.set(name, a.slice(2).replace(/^=/, ''));
      else flags.set(name, argv[++i] ?? '');
    } else args.push(a);
  }
  return { args, flags };
}

const ok = (output: string): KubectlResult => ({ output, error: null, exitCode: 0 });
const err = (error: string, output = ''): KubectlResult => ({ output, error, exitCode: 1 });

/** kind name kubectl prints in "deployment.apps/x scaled" */
function typeName(info: ResourceInfo): string {
  return info.group ? `${info.kind.toLowerCase()}.${info.group}` : info.kind.toLowerCase();
}

/**
 * Runs one kubectl command line (with or without the leading `kubectl`).
 * @param nowMs simulated now (for AGE columns)
 */
export function runKubectl(client: Client, line: string, nowMs: number): KubectlResult {
  const argv = splitArgs(line.trim());
  if (argv[0] === 'kubectl') argv.shift();
  const verb = argv.shift();
  const p = parse(argv);
  try {
    switch (verb) {
      case 'get':
        return get(client, p, nowMs);
      case 'scale':
        return scale(client, p);
      case 'delete':
        return del(client, p);
      case 'cordon':
      case 'uncordon':
        return cordon(client, p, verb === 'cordon');
      case undefined:
        return err('error: no command given');
      default:
        return err(`error: unknown command "${verb}" for "kubectl"`);
    }
  } catch (e) {
    if (e instanceof StatusError) return err(kubectlErrorMessage(e));
    return err(`error: ${(e as Error).message}`);
  }
}

function resolveTargets(client: Client, args: string[]): { info: ResourceInfo; names: string[] }[] | KubectlResult {
  if (!args.length) return err('error: you must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.');
  const out: { info: ResourceInfo; names: string[] }[] = [];
  if (args[0].includes('/')) {
    for (const a of args) {
      const [t, n] = a.split('/', 2);
      const info = client.api.registry.resolve(t);
      if (!info) return err(`error: the server doesn't have a resource type "${t}"`);
      const hit = out.find((x) => x.info === info);
      if (hit) hit.names.push(n);
      else out.push({ info, names: [n] });
    }
    return out;
  }
  for (const t of args[0].split(',')) {
    const info = client.api.registry.resolve(t);
    if (!info) return err(`error: the server doesn't have a resource type "${t}"`);
    out.push({ info, names: args.slice(1) });
  }
  return out;
}

function get(client: Client, p: Parsed, nowMs: number): KubectlResult {
  const targets = resolveTargets(client, p.args);
  if (!Array.isArray(targets)) return targets;
  const allNs = p.flags.has('all-namespaces');
  const ns = p.flags.get('namespace') ?? 'default';
  const outFmt = p.flags.get('output') ?? '';
  const selector = p.flags.get('selector');
  const items: { info: ResourceInfo; obj: KObject }[] = [];
  const errors: string[] = [];
  for (const t of targets) {
    const rc = client.resource(t.info.group, t.info.resource);
    if (t.names.length) {
      for (const n of t.names) {
        try {
          items.push({ info: t.info, obj: rc.get(t.info.namespaced ? ns : '', n) });
        } catch (e) {
          if (e instanceof StatusError) errors.push(kubectlErrorMessage(e));
          else throw e;
        }
      }
    } else {
      const list = rc.list(t.info.namespaced && !allNs ? ns : undefined, { labelSelector: selector });
      for (const o of list.items) items.push({ info: t.info, obj: o });
    }
  }
  const error = errors.length ? errors.join('\n') : null;
  if (outFmt === 'name') return { output: items.map((i) => `${typeName(i.info)}/${i.obj.metadata.name}\n`).join(''), error, exitCode: error ? 1 : 0 };
  if (outFmt === 'yaml' || outFmt === 'json') {
    const objs = items.map((i) => deepCopy(i.obj));
    const single = items.length === 1 && targets.every((t) => t.names.length > 0);
    const doc = single ? objs[0] : { apiVersion: 'v1', items: objs, kind: 'List', metadata: { resourceVersion: '' } };
    const output = outFmt === 'json' ? JSON.stringify(doc, null, 4) + '\n' : stringify(doc);
    return { output, error, exitCode: error ? 1 : 0 };
  }
  if (!items.length && !error) {
    const where = targets.some((t) => t.info.namespaced) && !allNs ? ` in ${ns} namespace` : '';
    return { output: '', error: `No resources found${where}.`, exitCode: 0 };
  }
  const wide = outFmt === 'wide';
  let output = '';
  const multi = targets.length > 1;
  for (const t of targets) {
    const mine = items.filter((i) => i.info === t.info);
    if (!mine.length) continue;
    const rows = mine.map((i) => describeRow(i.obj, nowMs));
    let headers = Object.keys(rows[0].columns);
    if (!wide) headers = headers.filter((h) => !(t.info.kind === 'Pod' && (h === 'IP' || h === 'NODE')));
    const table: string[][] = [];
    const showNs = allNs && t.info.namespaced;
    table.push([...(showNs ? ['NAMESPACE'] : []), 'NAME', ...headers]);
    for (const [k, r] of rows.entries()) {
      const name = multi ? `${typeName(t.info)}/${r.name}` : r.name;
      table.push([...(showNs ? [mine[k].obj.metadata.namespace ?? ''] : []), name, ...headers.map((h) => r.columns[h] ?? '')]);
    }
    if (output) output += '\n';
    output += formatTable(table);
  }
  return { output, error, exitCode: error ? 1 : 0 };
}

function scale(client: Client, p: Parsed): KubectlResult {
  const replicas = p.flags.get('replicas');
  if (replicas === undefined || !/^\d+$/.test(replicas)) return err('error: --replicas=COUNT is required, and COUNT must be greater than or equal to 0');
  const targets = resolveTargets(client, p.args);
  if (!Array.isArray(targets)) return targets;
  const ns = p.flags.get('namespace') ?? 'default';
  let output = '';
  for (const t of targets) {
    if (!t.info.subresources.includes('scale')) return err(`error: cannot scale ${typeName(t.info)}`);
    if (!t.names.length) return err('error: resource(s) were provided, but no name was specified');
    const rc = client.resource(t.info.group, t.info.resource);
    for (const n of t.names) {
      const cur = deepCopy(rc.get(ns, n, { quiet: true }));
      cur.spec.replicas = Number(replicas);
      rc.update(cur, { summary: `scale ${t.info.kind} ${ns}/${n} to ${replicas}` });
      output += `${typeName(t.info)}/${n} scaled\n`;
    }
  }
  return ok(output);
}

function del(client: Client, p: Parsed): KubectlResult {
  const targets = resolveTargets(client, p.args);
  if (!Array.isArray(targets)) return targets;
  const ns = p.flags.get('namespace') ?? 'default';
  const grace = p.flags.get('grace-period');
  const force = p.flags.has('force');
  const cascade = p.flags.get('cascade') ?? 'background';
  const policy = cascade === 'orphan' ? 'Orphan' : cascade === 'foreground' ? 'Foreground' : 'Background';
  let output = '';
  const errors: string[] = [];
  let warned = '';
  for (const t of targets) {
    const rc = client.resource(t.info.group, t.info.resource);
    let names = t.names;
    if (!names.length) {
      if (!p.flags.has('all') && !p.flags.get('selector')) return err('error: resource(s) were provided, but no name was specified');
      names = rc.list(t.info.namespaced ? ns : undefined, { labelSelector: p.flags.get('selector'), quiet: true }).items.map((o) => o.metadata.name);
    }
    for (const n of names) {
      try {
        const gp = force && grace === undefined ? 0 : grace !== undefined ? Number(grace) : undefined;
        if (force && gp === 0) warned = 'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n';
        rc.delete(t.info.namespaced ? ns : '', n, { gracePeriodSeconds: gp, propagationPolicy: policy });
        output += `${typeName(t.info)} "${n}" ${force && gp === 0 ? 'force deleted' : 'deleted'}\n`;
      } catch (e) {
        if (e instanceof StatusError) errors.push(kubectlErrorMessage(e));
        else throw e;
      }
    }
  }
  const error = [warned.trimEnd(), ...errors].filter(Boolean).join('\n') || null;
  return { output, error, exitCode: errors.length ? 1 : 0 };
}

function cordon(client: Client, p: Parsed, on: boolean): KubectlResult {
  const rc = client.resource('', 'nodes');
  let output = '';
  for (const n of p.args) {
    const cur = deepCopy(rc.get('', n, { quiet: true }));
    if (Boolean(cur.spec?.unschedulable) === on) {
      output += `node/${n} already ${on ? 'cordoned' : 'uncordoned'}\n`;
      continue;
    }
    cur.spec = { ...cur.spec, unschedulable: on ? true : undefined };
    if (!on) delete cur.spec.unschedulable;
    rc.update(cur, { summary: `${on ? 'cordon' : 'uncordon'} node ${n}` });
    output += `node/${n} ${on ? 'cordoned' : 'uncordoned'}\n`;
  }
  if (!p.args.length) return err('error: USAGE: cordon NODE [flags]');
  return ok(output);
}

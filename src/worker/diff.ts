/**
 * `kubectl diff -f -` (kubectl v1.33 staging/src/k8s.io/kubectl/pkg/cmd/diff/diff.go): for
 * every object of the manifest, the LIVE object and the MERGED one (what a server-side dry
 * run of the apply returns) are written as YAML (sigs.k8s.io/yaml: sorted keys, sequences
 * not indented) under /tmp/LIVE-…/ and /tmp/MERGED-…/, named
 * `<group.>version.Kind.namespace.name`, and compared with `diff -u -N`. managedFields are
 * omitted (--show-managed-fields=false); Secret data is masked as `***`.
 *
 * The dry runs go through the sandbox (sandbox.ts), so the cluster is not changed.
 */
import { toYAML } from '../cluster/kubectl/cmd/output';
import type { Cluster } from '../cluster/cluster';
import type { KObject } from '../cluster/api/types';
import { LAST_APPLIED, lastAppliedConfiguration } from '../cluster/kubectl/apply';
import { parseManifest } from '../cluster/kubectl/parse';
import { applyPatch, createThreeWayPatch } from '../cluster/apimachinery/strategic-merge';
import { sandboxed } from './sandbox';
import { getOwn, setOwn } from '../cluster/api/safe-object';

export interface DiffOutput {
  /** What `kubectl diff` prints on stdout (empty: no differences). */
  diff: string;
  /** What it prints on stderr (errors verbatim). */
  stderr: string;
}

/** sigs.k8s.io/yaml's output: sorted keys, block style, sequences flush with their key. */
export function toKubeYAML(obj: unknown): string {
  return toYAML(obj);
}

function cleaned(obj: KObject | null, mask?: Record<string, string>): string {
  if (!obj) return '';
  const o = structuredClone(obj) as KObject;
  if (o.metadata) delete (o.metadata as Record<string, unknown>).managedFields;
  if (o.kind === 'Secret' && mask) {
    for (const field of ['data', 'stringData'] as const) {
      const d = (o as Record<string, unknown>)[field] as Record<string, string> | undefined;
      if (d) for (const k of Object.keys(d)) setOwn(d, k, getOwn(mask, k) ?? '***');
    }
  }
  return toKubeYAML(o);
}

/** Line-based unified diff with 3 lines of context (GNU diff -u body, without headers). */
export function unifiedHunks(a: string, b: string, context = 3): string {
  const x = a ? a.replace(/\n$/, '').split('\n') : [];
  const y = b ? b.replace(/\n$/, '').split('\n') : [];
  const n = x.length;
  const m = y.length;
  // LCS table (objects are small); past ~4M cells, fall back to replace-all
  const ops: ('=' | '-' | '+')[] = [];
  if (n * m <= 4_000_000) {
    const w = m + 1;
    const t = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        t[i * w + j] = x[i] === y[j] ? t[(i + 1) * w + j + 1] + 1 : Math.max(t[(i + 1) * w + j], t[i * w + j + 1]); // array index
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && x[i] === y[j]) {
        ops.push('=');
        i++;
        j++;
      } else if (j < m && (i === n || t[i * w + j + 1] >= t[(i + 1) * w + j])) {
        ops.push('+');
        j++;
      } else {
        ops.push('-');
        i++;
      }
    }
  } else {
    for (let i = 0; i < n; i++) ops.push('-');
    for (let j = 0; j < m; j++) ops.push('+');
  }
  // ops are emitted as "+" before "-" on ties; GNU diff prints removals first within a change
  const lines: { op: '=' | '-' | '+'; text: string; ai: number; bi: number }[] = [];
  let ai = 0;
  let bi = 0;
  for (let k = 0; k < ops.length;) {
    if (ops[k] === '=') {
      lines.push({ op: '=', text: x[ai], ai: ai++, bi: bi++ });
      k++;
      continue;
    }
    const dels: typeof lines = [];
    const adds: typeof lines = [];
    while (k < ops.length && ops[k] !== '=') {
      if (ops[k] === '-') dels.push({ op: '-', text: x[ai], ai: ai++, bi });
      else adds.push({ op: '+', text: y[bi], ai, bi: bi++ });
      k++;
    }
    lines.push(...dels, ...adds);
  }
  const changed = lines.map((l, i) => (l.op !== '=' ? i : -1)).filter((i) => i >= 0);
  if (!changed.length) return '';
  const out: string[] = [];
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k] - context);
    let end = Math.min(lines.length, changed[k] + context + 1);
    while (k + 1 < changed.length && changed[k + 1] - context <= end) {
      k++;
      end = Math.min(lines.length, changed[k] + context + 1);
    }
    k++;
    const hunk = lines.slice(start, end);
    const aStart = hunk[0].ai;
    const bStart = hunk[0].bi;
    const aLen = hunk.filter((l) => l.op !== '+').length;
    const bLen = hunk.filter((l) => l.op !== '-').length;
    const range = (s: number, len: number) => (len === 1 ? `${s + 1}` : `${len === 0 ? s : s + 1},${len}`);
    out.push(`@@ -${range(aStart, aLen)} +${range(bStart, bLen)} @@`);
    for (const l of hunk) out.push(`${l.op === '=' ? ' ' : l.op}${l.text}`);
  }
  return `${out.join('\n')}\n`;
}

function stamp(ms: number): string {
  return `${new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.(\d{3})Z$/, '.$1000000')} +0000`;
}

/** A stable pseudo-random temp-dir suffix, as os.MkdirTemp would make. */
function tempSuffix(seed: string): string {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619) >>> 0;
  return String(h);
}

/** `kubectl diff -f -` of `text` against `cluster`. */
export function kubectlDiff(cluster: Cluster, text: string): DiffOutput {
  return sandboxed(cluster, () => {
    const client = cluster.kubectlClient;
    const registry = client.api.registry;
    const live = `/tmp/LIVE-${tempSuffix(`live${text}`)}`;
    const merged = `/tmp/MERGED-${tempSuffix(`merged${text}`)}`;
    const now = stamp(cluster.now());
    const out: string[] = [];
    const errors: string[] = [];
    for (const chunk of parseManifest(text)) {
      if (chunk.error !== undefined) {
        errors.push(`error: error parsing STDIN: ${chunk.error}`);
        break;
      }
      const v = chunk.value as KObject;
      if (!v || typeof v !== 'object' || Array.isArray(v)) continue;
      const info = typeof v.apiVersion === 'string' && typeof v.kind === 'string' ? registry.forKind(v.apiVersion, v.kind) : undefined;
      if (!info) {
        errors.push(
          `error: resource mapping not found for name: "${v.metadata?.name ?? ''}" namespace: "${v.metadata?.namespace ?? ''}" from "STDIN": no matches for kind "${String(v.kind)}" in version "${String(v.apiVersion)}"\nensure CRDs are installed first`,
        );
        continue;
      }
      const ns = info.namespaced ? v.metadata?.namespace || 'default' : '';
      const name = v.metadata?.name ?? '';
      const obj = structuredClone(v);
      obj.metadata = { ...obj.metadata, name };
      if (info.namespaced) obj.metadata.namespace = ns;
      const modified = structuredClone(obj);
      modified.metadata.annotations = { ...(modified.metadata.annotations ?? {}), [LAST_APPLIED]: lastAppliedConfiguration(obj) };
      const rc = client.resource(info.group, info.resource);
      let current: KObject | null = null;
      try {
        current = rc.get(ns, name, { quiet: true });
      } catch {
        current = null;
      }
      let next: KObject;
      try {
        if (!current) next = rc.createWithWarnings(ns, modified, { dryRun: true, fieldManager: 'kubectl-client-side-apply' }).object;
        else {
          const la = current.metadata.annotations?.[LAST_APPLIED];
          let original: Record<string, unknown> | null = null;
          try {
            original = la ? JSON.parse(la) : null;
          } catch {
            original = null;
          }
          const opts = { kind: info.kind, strategic: !info.custom };
          const patch = createThreeWayPatch(original, modified as Record<string, unknown>, current as Record<string, unknown>, opts);
          next = Object.keys(patch).length
            ? rc.updateWithWarnings(applyPatch(current as Record<string, unknown>, patch, opts) as KObject, {
                dryRun: true,
                fieldManager: 'kubectl-client-side-apply',
              }).object
            : current;
        }
      } catch (e) {
        const m = e instanceof Error ? e.message : String(e);
        errors.push(`Error from server: ${m}`);
        continue;
      }
      const file = `${info.group ? `${info.group}.` : ''}${info.version}.${info.kind}.${ns}.${name}`;
      // Secrets: kubectl masks values, marking changed ones "(before)"/"(after)"
      let maskA: Record<string, string> | undefined;
      let maskB: Record<string, string> | undefined;
      if (info.kind === 'Secret') {
        maskA = {};
        maskB = {};
        const a = { ...(current?.data ?? {}) } as Record<string, string>;
        const b = { ...(next.data ?? {}) } as Record<string, string>;
        for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
          const diff = getOwn(a, k) !== getOwn(b, k);
          setOwn(maskA, k, diff ? '*** (before)' : '***');
          setOwn(maskB, k, diff ? '*** (after)' : '***');
        }
      }
      const body = unifiedHunks(cleaned(current, maskA), cleaned(next, maskB));
      if (!body) continue;
      out.push(`diff -u -N ${live}/${file} ${merged}/${file}\n--- ${live}/${file}\t${now}\n+++ ${merged}/${file}\t${now}\n${body}`);
    }
    return { diff: out.join(''), stderr: errors.length ? `${errors.join('\n')}\n` : '' };
  });
}

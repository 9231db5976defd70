/**
 * configMapGenerator / secretGenerator (api/kv, api/internal/generators) and kustomize's
 * content hash for generated names (api/hasher): sha256 of a canonical JSON encoding of
 * kind, name, data (and type for Secrets), the first 10 hex digits with 0,1,3,a,e mapped to
 * g,h,k,m,t so the suffix is never all digits nor a bad word.
 */
import { hex, sha256 } from '../util/hash';
import { goJSON } from '../apimachinery/strategic-merge';
import { KustomizeError, meta, type GeneratorArgs, type GeneratorOptions, type KustomizeFS, type Obj } from './types';
import { join } from './paths';
import { base64StdText } from '../util/base64';
import { setOwn } from '../api/safe-object';

/** Standard base64 (with padding) of the UTF-8 bytes of `s`. */
export const base64 = base64StdText;

/** The kustomize name hash (hasher.Hash) of a ConfigMap or Secret. */
export function kustomizeHash(o: Obj): string {
  // getNodeValues looks "metadata/name" up as one field name, which never exists: the name
  // in the encoding is always "" (so the hash is of the content only).
  const val = (v: unknown) => (v === undefined || v === null ? '' : v);
  const isMap = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  let m: Obj;
  if (o.kind === 'ConfigMap') {
    m = { kind: 'ConfigMap', name: '', data: val(o.data) };
    if (isMap(o.binaryData)) m.binaryData = o.binaryData;
  } else if (o.kind === 'Secret') {
    m = { kind: 'Secret', type: val(o.type), name: '', data: val(o.data) };
    if (isMap(o.stringData)) m.stringData = o.stringData;
  } else m = o;
  const h = hex(sha256(goJSON(m))).slice(0, 10);
  const map: Record<string, string> = { '0': 'g', '1': 'h', '3': 'k', a: 'm', e: 't' };
  return h.replace(/[013ae]/g, (c) => map[c]);
}

function literal(src: string): [string, string] {
  const i = src.indexOf('=');
  if (i < 0) throw new KustomizeError(`invalid literal source ${src}, expected key=value`);
  const k = src.slice(0, i);
  let v = src.slice(i + 1);
  if (!k) throw new KustomizeError(`invalid literal source ${src}, expected key=value`);
  if (v.length >= 2 && (v[0] === '"' || v[0] === "'") && v[v.length - 1] === v[0]) v = v.slice(1, -1);
  return [k, v];
}

const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

function envLines(text: string, file: string): [string, string][] {
  const out: [string, string][] = [];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const raw of lines) {
    const line = raw.replace(/\r$/, '').replace(/^\s+/, '');
    if (!line || line.startsWith('#')) continue;
    const i = line.indexOf('=');
    const k = i < 0 ? line : line.slice(0, i);
    if (!ENV_NAME.test(k))
      throw new KustomizeError(
        `"${k}" is not a valid key name in ${file}: a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit`,
      );
    out.push([k, i < 0 ? '' : line.slice(i + 1)]);
  }
  return out;
}

function readOrFail(fs: KustomizeFS, dir: string, p: string): string {
  const t = fs.readFile(join(dir, p));
  if (t === undefined)
    throw new KustomizeError(`evalsymlink failure on '${join(dir, p)}' : lstat ${join(dir, p)}: no such file or directory`);
  return t;
}

/** Merges the kustomization-wide generatorOptions into a generator's own options. */
export function mergeOptions(global: GeneratorOptions | undefined, local: GeneratorOptions | undefined): GeneratorOptions {
  const g = global ?? {};
  const l = local ?? {};
  return {
    labels: g.labels || l.labels ? { ...g.labels, ...l.labels } : undefined,
    annotations: g.annotations || l.annotations ? { ...g.annotations, ...l.annotations } : undefined,
    disableNameSuffixHash: !!(g.disableNameSuffixHash || l.disableNameSuffixHash),
    immutable: !!(g.immutable || l.immutable),
  };
}

/** The key/value pairs of a generator: envs, then files, then literals (as kustomize loads them). */
function pairs(fs: KustomizeFS, dir: string, args: GeneratorArgs): [string, string][] {
  const out: [string, string][] = [];
  const envs = [...(args.envs ?? []), ...(args.env ? [args.env] : [])];
  for (const e of envs) out.push(...envLines(readOrFail(fs, dir, e), e));
  for (const f of args.files ?? []) {
    const i = f.indexOf('=');
    const key = i >= 0 ? f.slice(0, i) : f.slice(f.lastIndexOf('/') + 1);
    const path = i >= 0 ? f.slice(i + 1) : f;
    out.push([key, readOrFail(fs, dir, path)]);
  }
  for (const l of args.literals ?? []) out.push(literal(l));
  return out;
}

/** Generates one ConfigMap or Secret; `needsHash` tells whether its name gets the hash suffix. */
export function generate(
  fs: KustomizeFS,
  dir: string,
  kind: 'ConfigMap' | 'Secret',
  args: GeneratorArgs,
  global: GeneratorOptions | undefined,
): { obj: Obj; needsHash: boolean } {
  const opts = mergeOptions(global, args.options);
  const obj: Obj = { apiVersion: 'v1', kind, metadata: { name: args.name } };
  const m = meta(obj);
  if (args.namespace) m.namespace = args.namespace;
  if (opts.labels) m.labels = { ...opts.labels };
  if (opts.annotations) m.annotations = { ...opts.annotations };
  const data: Obj = {};
  for (const [k, v] of pairs(fs, dir, args)) {
    if (Object.prototype.hasOwnProperty.call(data, k))
      throw new KustomizeError(`configmap ${args.name} illegally repeats the key \`${k}\``);
    setOwn(data, k, kind === 'Secret' ? base64(v) : v);
  }
  if (Object.keys(data).length) obj.data = data;
  if (kind === 'Secret') obj.type = args.type ?? 'Opaque';
  if (opts.immutable) obj.immutable = true;
  return { obj, needsHash: !opts.disableNameSuffixHash };
}

/**
 * The build (krusty's KustTarget): accumulate resources from files and bases/overlays
 * (recursively), run the generators, then the builtin transformers in kustomize's order
 * (PatchStrategicMerge, Patch, Namespace, Prefix, Suffix, Labels, Annotations,
 * PatchJson6902, Replicas, ImageTag); at the root, append content hashes to generated
 * names, fix name references, and sort in the legacy order.
 */
import { parse, parseAllDocuments } from 'yaml';
import {
  KNOWN_FIELDS,
  KustomizeError,
  UNSUPPORTED_FIELDS,
  clone,
  groupVersion,
  kindOf,
  meta,
  nameOf,
  nsOf,
  type GeneratorArgs,
  type KustomizeFS,
  type Kustomization,
  type Obj,
  type Res,
} from './types';
import { COMMON_ANNOTATIONS, COMMON_LABELS, METADATA_LABELS, REPLICAS, TEMPLATE_LABELS } from './fieldspecs';
import { addMapEntries, addPrefixSuffix, fixNameReferences, hadName, setImages, setNamespace, specSelects, visitField } from './transform';
import { applyOps, applySmp, parsePatch } from './patches';
import { generate, kustomizeHash } from './generators';
import { join } from './paths';
import { toGoYaml } from './yaml-emit';

const FILE_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

const DEPRECATIONS: [keyof Kustomization, string][] = [
  [
    'bases',
    "# Warning: 'bases' is deprecated. Please use 'resources' instead. Run 'kustomize edit fix' to update your Kustomization automatically.",
  ],
  [
    'commonLabels',
    "# Warning: 'commonLabels' is deprecated. Please use 'labels' instead. Run 'kustomize edit fix' to update your Kustomization automatically.",
  ],
  [
    'imageTags',
    "# Warning: 'imageTags' is deprecated. Please use 'images' instead. Run 'kustomize edit fix' to update your Kustomization automatically.",
  ],
  [
    'patchesJson6902',
    "# Warning: 'patchesJson6902' is deprecated. Please use 'patches' instead. Run 'kustomize edit fix' to update your Kustomization automatically.",
  ],
  [
    'patchesStrategicMerge',
    "# Warning: 'patchesStrategicMerge' is deprecated. Please use 'patches' instead. Run 'kustomize edit fix' to update your Kustomization automatically.",
  ],
  [
    'vars',
    "# Warning: 'vars' is deprecated. Please use 'replacements' instead. [EXPERIMENTAL] Run 'kustomize edit fix' to update your Kustomization automatically.",
  ],
];

interface Ctx {
  fs: KustomizeFS;
  warnings: string[];
}

const wrap = (prefix: string, e: unknown): KustomizeError => new KustomizeError(`${prefix}: ${(e as Error).message}`);

/** Reads and validates the kustomization file of `dir`. */
export function loadKustomization(fs: KustomizeFS, dir: string): Kustomization {
  let text: string | undefined;
  for (const f of FILE_NAMES) {
    text = fs.readFile(join(dir, f));
    if (text !== undefined) break;
  }
  if (text === undefined)
    throw new KustomizeError(`unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '${dir}'`);
  let k: unknown;
  try {
    k = parse(text) ?? {};
  } catch (e) {
    throw new KustomizeError(`invalid Kustomization: ${(e as Error).message}`);
  }
  if (typeof k !== 'object' || Array.isArray(k))
    throw new KustomizeError('invalid Kustomization: json: cannot unmarshal string into Go value of type types.Kustomization');
  for (const f of Object.keys(k as Obj)) {
    if (!KNOWN_FIELDS.has(f)) throw new KustomizeError(`invalid Kustomization: json: unknown field "${f}"`);
    if (UNSUPPORTED_FIELDS.has(f)) throw new KustomizeError(`kustomization field '${f}' is not supported by kube-relay's kustomize subset`);
  }
  const kz = k as Kustomization;
  if (kz.kind && kz.kind !== 'Kustomization') throw new KustomizeError(`kind ${kz.kind} is not supported by kube-relay's kustomize subset`);
  return kz;
}

function parseResources(text: string, file: string): Res[] {
  const out: Res[] = [];
  for (const d of parseAllDocuments(text)) {
    if (d.errors.length) throw new KustomizeError(`MalformedYAMLError: ${d.errors[0].message} in File: ${file}`);
    const o = d.toJS() as unknown;
    if (o === null || o === undefined) continue;
    if (typeof o !== 'object' || Array.isArray(o)) throw new KustomizeError(`missing Resource metadata in File: ${file}`);
    const obj = o as Obj;
    if (kindOf(obj) === 'List' && Array.isArray(obj.items)) {
      for (const it of obj.items as Obj[]) out.push({ obj: it, prev: [], needsHash: false });
    } else out.push({ obj, prev: [], needsHash: false });
  }
  return out;
}

function accumulateResources(ctx: Ctx, dir: string, paths: string[]): Res[] {
  const all: Res[] = [];
  for (const p of paths) {
    const abs = join(dir, p);
    const isDir = ctx.fs.isDir(abs);
    const text = isDir ? undefined : ctx.fs.readFile(abs);
    let got: Res[];
    if (text !== undefined) {
      got = parseResources(text, abs);
    } else {
      const fileErr = isDir
        ? `accumulating resources from '${p}': '${abs}' must resolve to a file`
        : `accumulating resources from '${p}': evalsymlink failure on '${abs}' : lstat ${abs}: no such file or directory`;
      if (!isDir)
        throw new KustomizeError(
          `accumulation err='${fileErr}': must build at directory: not a valid directory: evalsymlink failure on '${abs}' : lstat ${abs}: no such file or directory`,
        );
      try {
        got = accumulateTarget(ctx, abs, true);
      } catch (e) {
        throw new KustomizeError(`accumulation err='${fileErr}': recursed accumulation of path '${abs}': ${(e as Error).message}`);
      }
    }
    for (const r of got) {
      const clash = all.find((x) => sameId(x, r));
      if (clash) throw new KustomizeError(`may not add resource with an already registered id: ${idOf(r.obj)}`);
      all.push(r);
    }
  }
  return all;
}

function idOf(o: Obj): string {
  const { group, version } = groupVersion(o);
  return `${kindOf(o)}.${version || '[noVer]'}.${group || '[noGrp]'}/${nameOf(o)}.${nsOf(o) || '[noNs]'}`;
}

function sameId(a: Res, b: Res): boolean {
  const ga = groupVersion(a.obj);
  const gb = groupVersion(b.obj);
  return (
    kindOf(a.obj) === kindOf(b.obj) &&
    ga.group === gb.group &&
    nameOf(a.obj) === nameOf(b.obj) &&
    (nsOf(a.obj) || 'default') === (nsOf(b.obj) || 'default')
  );
}

function runGenerators(ctx: Ctx, dir: string, k: Kustomization, all: Res[]): void {
  const gens: ['ConfigMap' | 'Secret', GeneratorArgs][] = [
    ...(k.configMapGenerator ?? []).map((g) => ['ConfigMap', g] as ['ConfigMap', GeneratorArgs]),
    ...(k.secretGenerator ?? []).map((g) => ['Secret', g] as ['Secret', GeneratorArgs]),
  ];
  for (const [kind, args] of gens) {
    const g = generate(ctx.fs, dir, kind, args, k.generatorOptions);
    const ns = args.namespace ?? '';
    const old = all.filter((r) => kindOf(r.obj) === kind && hadName(r, args.name) && (nsOf(r.obj) || 'default') === (ns || 'default'));
    const behavior = args.behavior ?? 'create';
    if (behavior === 'create') {
      if (old.length)
        throw new KustomizeError(`failed to merge ${kind} ${args.name}: id ${idOf(g.obj)} exists; behavior must be merge or replace`);
      all.push({ obj: g.obj, prev: [], needsHash: g.needsHash });
      continue;
    }
    if (old.length !== 1) throw new KustomizeError(`id ${JSON.stringify(idOf(g.obj))} does not exist; cannot merge or replace`);
    const r = old[0];
    const name = nameOf(r.obj);
    const ons = nsOf(r.obj);
    if (behavior === 'replace') r.obj = g.obj;
    else {
      const merged = clone(r.obj);
      const m = meta(merged);
      const gm = meta(g.obj);
      if (gm.labels) m.labels = { ...(m.labels as Obj), ...(gm.labels as Obj) };
      if (gm.annotations) m.annotations = { ...(m.annotations as Obj), ...(gm.annotations as Obj) };
      if (g.obj.data) merged.data = { ...(merged.data as Obj), ...(g.obj.data as Obj) };
      if (g.obj.type !== undefined) merged.type = g.obj.type;
      r.obj = merged;
    }
    meta(r.obj).name = name;
    if (ons) meta(r.obj).namespace = ons;
    r.needsHash = r.needsHash || g.needsHash;
  }
}

function readPatch(ctx: Ctx, dir: string, p: { path?: string; patch?: string }): string {
  if (p.patch !== undefined) return p.patch;
  const abs = join(dir, p.path ?? '');
  const t = ctx.fs.readFile(abs);
  if (t === undefined)
    throw new KustomizeError(
      `trouble configuring builtin PatchTransformer with config: \`path: ${p.path}\`: evalsymlink failure on '${abs}' : lstat ${abs}: no such file or directory`,
    );
  return t;
}

function runTransformers(ctx: Ctx, dir: string, k: Kustomization, all: Res[]): void {
  for (const p of k.patchesStrategicMerge ?? []) {
    const text = p.includes('\n') ? p : readPatch(ctx, dir, { path: p });
    const parsed = parsePatch(text, p);
    if ('smp' in parsed) applySmp(all, parsed.smp, undefined);
  }
  for (const p of k.patches ?? []) {
    const parsed = parsePatch(readPatch(ctx, dir, p), p.path ?? 'inline patch');
    if ('ops' in parsed) {
      if (!p.target) throw new KustomizeError('unable to apply patch: must specify a target for patch ' + (p.path ?? p.patch ?? ''));
      applyOps(all, parsed.ops, p.target);
    } else applySmp(all, parsed.smp, p.target);
  }
  if (k.namespace) setNamespace(all, k.namespace);
  addPrefixSuffix(all, k.namePrefix ?? '', k.nameSuffix ?? '');
  if (k.commonLabels) addMapEntries(all, k.commonLabels, COMMON_LABELS);
  for (const l of k.labels ?? []) {
    const specs = l.includeSelectors ? COMMON_LABELS : l.includeTemplates ? [...METADATA_LABELS, ...TEMPLATE_LABELS] : METADATA_LABELS;
    addMapEntries(all, l.pairs ?? {}, specs);
  }
  if (k.commonAnnotations) addMapEntries(all, k.commonAnnotations, COMMON_ANNOTATIONS);
  for (const p of k.patchesJson6902 ?? []) {
    const parsed = parsePatch(readPatch(ctx, dir, p), p.path ?? 'inline patch');
    if ('ops' in parsed) applyOps(all, parsed.ops, p.target ?? {});
    else applySmp(all, parsed.smp, p.target);
  }
  for (const rep of k.replicas ?? []) {
    for (const r of all) {
      if (!hadName(r, rep.name)) continue;
      for (const spec of REPLICAS) {
        if (specSelects(spec, r.obj)) visitField(r.obj, spec, (parent, key) => (parent[key] = rep.count));
      }
    }
  }
  const images = [...(k.images ?? []), ...(k.imageTags ?? [])];
  if (images.length) setImages(all, images);
}

/** One kustomization level: its resources (with bases built recursively), generators, transformers. */
function accumulateTarget(ctx: Ctx, dir: string, nested: boolean): Res[] {
  let k: Kustomization;
  try {
    k = loadKustomization(ctx.fs, dir);
  } catch (e) {
    throw nested ? wrap(`couldn't make target for path '${dir}'`, e) : e;
  }
  for (const [field, msg] of DEPRECATIONS) if (k[field] !== undefined && k[field] !== null) ctx.warnings.push(msg);
  let all: Res[];
  try {
    all = accumulateResources(ctx, dir, [...(k.resources ?? []), ...(k.bases ?? [])]);
  } catch (e) {
    throw wrap('accumulating resources', e);
  }
  runGenerators(ctx, dir, k, all);
  runTransformers(ctx, dir, k, all);
  return all;
}

const ORDER_FIRST = [
  'Namespace',
  'ResourceQuota',
  'StorageClass',
  'CustomResourceDefinition',
  'ServiceAccount',
  'PodSecurityPolicy',
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
  'ConfigMap',
  'Secret',
  'Endpoints',
  'Service',
  'LimitRange',
  'PriorityClass',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'Deployment',
  'StatefulSet',
  'CronJob',
  'PodDisruptionBudget',
];
const ORDER_LAST = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];

function typeOrder(kind: string): number {
  const i = ORDER_FIRST.indexOf(kind);
  if (i >= 0) return -ORDER_FIRST.length + i;
  const j = ORDER_LAST.indexOf(kind);
  return j >= 0 ? 1 + j : 0;
}

function gvkSortString(o: Obj): string {
  const { group, version } = groupVersion(o);
  return `${group || '~G'}_${version || '~V'}_${kindOf(o) || '~K'}`;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** kustomize's legacy sort order (LegacyOrderTransformer). */
export function legacySort(objs: Obj[]): Obj[] {
  return objs
    .map((o, i) => ({ o, i }))
    .sort((x, y) => {
      const a = x.o;
      const b = y.o;
      const ga = gvkSortString(a);
      const gb = gvkSortString(b);
      if (ga !== gb) {
        const ta = typeOrder(kindOf(a));
        const tb = typeOrder(kindOf(b));
        if (ta !== tb) return ta - tb;
        return cmp(ga, gb);
      }
      return cmp(`${nsOf(a) || '~X'}|${nameOf(a) || '~N'}`, `${nsOf(b) || '~X'}|${nameOf(b) || '~N'}`) || x.i - y.i;
    })
    .map((x) => x.o);
}

export interface BuildResult {
  /** the rendered objects in output order */
  objects: Obj[];
  /** what `kubectl kustomize` prints on stdout */
  yaml: string;
  /** deprecation warnings, one per line, as printed on stderr */
  warnings: string[];
}

/** Builds the kustomization at `dir` (an absolute or relative '/'-separated path in `fs`). */
export function build(fs: KustomizeFS, dir: string, warnings: string[] = []): BuildResult {
  const ctx: Ctx = { fs, warnings };
  const root = join(dir, '.');
  if (!fs.isDir(root))
    throw new KustomizeError(
      `must build at directory: not a valid directory: evalsymlink failure on '${root}' : lstat ${root}: no such file or directory`,
    );
  const all = accumulateTarget(ctx, root, false);
  for (const r of all) {
    if (!r.needsHash) continue;
    r.prev.push({ name: nameOf(r.obj), namespace: nsOf(r.obj) });
    meta(r.obj).name = `${nameOf(r.obj)}-${kustomizeHash(r.obj)}`;
  }
  fixNameReferences(all);
  const objects = legacySort(all.map((r) => r.obj));
  return { objects, yaml: objects.map(toGoYaml).join('---\n'), warnings: ctx.warnings };
}

/**
 * The examples gallery's contents (data only; the UI is src/ui/gallery). Two groups:
 * - `peekcart`: the seed's app as one multi-document file, and the same app as a kustomize
 *   base with dev and prod overlays (src/scenarios/kustomize, the files the kustomize goldens
 *   test), opened as one tab per file with its folder path.
 * - `real`: every manifest in src/examples/real (copied verbatim from public
 *   repositories), with its origin from that folder's SOURCES.md. Their texts are loaded on
 *   demand (one small chunk each), so the gallery costs nothing until it is used.
 */
import sourcesMd from './real/SOURCES.md?raw';
import peekcartApp from './peekcart-app.yaml?raw';
import { parseSources, type ManifestSource } from './sources';
import websiteCrd from './operators/website-crd.yaml?raw';
import website from './operators/website.yaml?raw';

import backupCrd from './operators/backup-crd.yaml?raw';
import backup from './operators/backup.yaml?raw';
// the controllers' sources as text (a glob: TypeScript would resolve a `.ts?raw` import as the module itself)
const controllers = import.meta.glob<string>('./operators/*.controller.*', { query: '?raw', import: 'default', eager: true });
const websiteController = controllers['./operators/website.controller.ts'];
const backupController = controllers['./operators/backup.controller.js'];

/** One file of an example: `path` is the tab's name ("overlays/prod/kustomization.yaml"). */
export interface ExampleFile {
  path: string;
  text: string;
}

export interface Example {
  /** Stable id (`data-example`): "peekcart", "peekcart-kustomize", or the real file's base name. */
  id: string;
  group: 'peekcart' | 'operator' | 'real';
  title: string;
  /** One line: what it is and what to try. Markdown `code` and **bold** as written. */
  summary: string;
  /** The files, in tab order. */
  load(): Promise<ExampleFile[]>;
  /** The path of the tab to show first. */
  main: string;
  /** For kustomize examples: the kustomization directories, the one to apply first first. */
  kustomizeDirs?: string[];
  /** Where a real manifest comes from (SOURCES.md). */
  source?: ManifestSource;
  /** The tour that walks through it (src/scenarios/tours/*.tour.yaml id), if any. */
  tour?: string;
}

const KUSTOMIZE_PREFIX = '../scenarios/kustomize/';
const kustomizeFiles = import.meta.glob<string>('../scenarios/kustomize/**/*.yaml', { query: '?raw', import: 'default', eager: true });
const realFiles = import.meta.glob<string>('./real/*.yaml', { query: '?raw', import: 'default' });

/** The kustomize example's files, base first, then the overlays (dev, prod), kustomization.yaml first in each folder. */
function peekcartKustomize(): ExampleFile[] {
  const files = Object.entries(kustomizeFiles).map(([k, text]) => ({ path: k.slice(KUSTOMIZE_PREFIX.length), text }));
  const rank = (p: string) => `${p.slice(0, p.lastIndexOf('/'))}/${p.endsWith('/kustomization.yaml') ? '0' : '1'}${p}`;
  return files.sort((a, b) => (rank(a.path) < rank(b.path) ? -1 : 1));
}

const baseName = (key: string) => key.slice(key.lastIndexOf('/') + 1);

/** The peekcart examples, then the real manifests in SOURCES.md order. */
export const EXAMPLES: readonly Example[] = [
  {
    id: 'peekcart',
    group: 'peekcart',
    title: 'peekcart app',
    summary: 'The seed\'s app: Deployment `peekcart` (3 replicas, `peekcart:latest`, port 8080), Service `peekcart` (80 → 8080), a `mysql` StatefulSet with a PersistentVolumeClaim and its headless Service, and a HorizontalPodAutoscaler (3–10 Pods at 70 % CPU).',
    load: () => Promise.resolve([{ path: 'peekcart.yaml', text: peekcartApp }]),
    main: 'peekcart.yaml',
  },
  {
    id: 'peekcart-kustomize',
    group: 'peekcart',
    title: 'peekcart with kustomize',
    summary: 'A kustomize base (`base/`) and two overlays: `overlays/dev` (prefix `dev-`, 1 replica, a generated ConfigMap) and `overlays/prod` (namespace `shop`, prefix `prod-`, 5 replicas, image tag 1.1.0, generated ConfigMap and Secret with hashed names). Preview with **kustomize build**, apply with **Apply -k**.',
    load: () => Promise.resolve(peekcartKustomize()),
    main: 'overlays/prod/kustomization.yaml',
    kustomizeDirs: ['overlays/prod', 'overlays/dev', 'base'],
  },
  // user controllers (docs/user-controllers.md): the CRD, the controller tab, then an object
  {
    id: 'website-operator',
    group: 'operator',
    title: 'Website operator',
    summary: 'A `Website` CRD and its controller in TypeScript: for each Website it keeps a Deployment and a Service (owned: they carry an ownerReference) and reports `status.readyReplicas`. Apply `website-crd.yaml`, press **Start controller** in `website.controller.ts`, then apply `website.yaml` and watch `website-controller` in the relay. Delete the Website: the garbage collector removes what it owned.',
    load: () => Promise.resolve([
      { path: 'website-crd.yaml', text: websiteCrd },
      { path: 'website.controller.ts', text: websiteController },
      { path: 'website.yaml', text: website },
    ]),
    main: 'website-crd.yaml',
    tour: 'website-operator',
  },
  {
    id: 'backup-operator',
    group: 'operator',
    title: 'Backup with a finalizer',
    summary: 'A `Backup` CRD and its controller in JavaScript: a finalizer makes deleting a Backup wait until its copy in the "bucket" is cleaned up, and `requeueAfter` brings the controller back when the copy is done. Apply `backup-crd.yaml`, start `backup.controller.js`, apply `backup.yaml`, then `kubectl delete backup nightly`.',
    load: () => Promise.resolve([
      { path: 'backup-crd.yaml', text: backupCrd },
      { path: 'backup.controller.js', text: backupController },
      { path: 'backup.yaml', text: backup },
    ]),
    main: 'backup-crd.yaml',
    tour: 'backup-operator',
  },
  ...parseSources(sourcesMd).flatMap((source): Example[] => {
    const key = Object.keys(realFiles).find((k) => baseName(k) === source.file);
    if (!key) return [];
    return [
      {
        id: source.file.replace(/\.yaml$/, ''),
        group: 'real',
        title: source.file,
        summary: source.description,
        load: async () => [{ path: source.file, text: await realFiles[key]() }],
        main: source.file,
        source,
      },
    ];
  }),
];

/** The example with this id, if any. */
export function exampleById(id: string): Example | undefined {
  return EXAMPLES.find((e) => e.id === id);
}

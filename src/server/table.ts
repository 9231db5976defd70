/**
 * Server-side Table responses (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`), as
 * kube-apiserver's TableConvertor builds them (pkg/printers/internalversion via
 * pkg/registry/*\/storage TableConvertor, and the CRD tableconvertor): columnDefinitions
 * (priority 1 = only with `-o wide`), one row per object with its cells and a
 * PartialObjectMetadata. The columns are the engine's kubectl printers (cluster/kubectl/table.ts),
 * so `kubectl get` against the server prints what it prints in the app.
 */
import { customResourceTable, tableFor, type PrinterColumn, type TableDef } from '../cluster/kubectl/table';
import type { KObject } from '../cluster/api/types';
import type { ResourceInfo } from '../cluster/api/resources';

/** True when the Accept header asks for a meta.k8s.io Table. */
export function wantsTable(accept: string | undefined): boolean {
  return !!accept && /as=Table/.test(accept) && /g=meta\.k8s\.io/.test(accept);
}

const WORDS: Record<string, string> = {
  IP: 'IP',
  'CLUSTER-IP': 'Cluster-IP',
  'EXTERNAL-IP': 'External-IP',
  'INTERNAL-IP': 'Internal-IP',
  'PORT(S)': 'Port(s)',
  'OS-IMAGE': 'OS-Image',
  'KERNEL-VERSION': 'Kernel-Version',
  'CONTAINER-RUNTIME': 'Container-Runtime',
  'NOMINATED NODE': 'Nominated Node',
  'READINESS GATES': 'Readiness Gates',
  'UP-TO-DATE': 'Up-to-date',
};

/** The column name printers.go declares ("Nominated Node"); kubectl upper-cases it again. */
function columnName(header: string): string {
  if (WORDS[header]) return WORDS[header];
  return header
    .toLowerCase()
    .split(' ')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/** The table definition for a resource: printers, a CRD's printer columns, or NAME / CREATED AT. */
export function tableDefFor(info: ResourceInfo, crd: KObject | undefined): TableDef {
  if (info.custom) {
    const v = (crd?.spec?.versions ?? []).find((x: { name: string }) => x.name === info.version);
    return customResourceTable(v?.additionalPrinterColumns as PrinterColumn[] | undefined);
  }
  return tableFor(info.kind);
}

/**
 * The NAME cell: printers.go printStorageClass and printIngressClass append " (default)" to the
 * default class (storageutil.IsDefaultAnnotation: the GA or beta is-default-class annotation
 * "true"; networking.AnnotationIsDefaultIngressClass "true").
 */
export function nameCell(o: KObject): string {
  const ann = o.metadata.annotations ?? {};
  const isDefault =
    o.kind === 'StorageClass'
      ? ann['storageclass.kubernetes.io/is-default-class'] === 'true' || ann['storageclass.beta.kubernetes.io/is-default-class'] === 'true'
      : o.kind === 'IngressClass' && ann['ingressclass.kubernetes.io/is-default-class'] === 'true';
  return isDefault ? `${o.metadata.name} (default)` : o.metadata.name;
}

function partialMetadata(o: KObject): object {
  const md = { ...o.metadata };
  delete md.managedFields;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: md };
}

/**
 * A metav1.Table of `objects`. `includeObject`: "None" | "Metadata" (default) | "Object".
 * @param nowMs simulated now (ages).
 */
export function toTable(
  def: TableDef,
  objects: KObject[],
  nowMs: number,
  listMeta: object,
  includeObject = 'Metadata',
  withColumns = true,
): object {
  const columns = [...(def.noName ? [] : [{ header: 'NAME' }]), ...def.columns].map((c) => ({
    name: columnName(c.header),
    type: 'string',
    format: c.header === 'NAME' ? 'name' : '',
    description:
      c.header === 'NAME'
        ? 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names'
        : '',
    priority: 'wide' in c && c.wide ? 1 : 0,
  }));
  const rows = objects.map((o) => ({
    cells: [...(def.noName ? [] : [nameCell(o)]), ...def.row(o, nowMs).map((c) => (/^\d+$/.test(c) && c.length < 10 ? Number(c) : c))],
    ...(includeObject === 'None' ? {} : { object: includeObject === 'Object' ? o : partialMetadata(o) }),
  }));
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    ...(withColumns ? { columnDefinitions: columns } : { columnDefinitions: null }),
    rows,
  };
}

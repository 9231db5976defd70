/**
 * How `kubectl get` lays out objects as text, shared by the list (./get.ts) and `-w` (./get-watch.ts):
 * the human-readable table of k8s.io/cli-runtime/pkg/printers/tableprinter.go (NAMESPACE with -A,
 * `kind/name`, wide columns, -L, --show-labels; a CRD's additionalPrinterColumns) and
 * customcolumn.go (-o custom-columns).
 */
import type { Client } from '../../client/clientset';
import type { ResourceInfo } from '../../api/resources';
import type { KObject } from '../../api/types';
import { formatTable } from '../tabwriter';
import { customResourceTable, formatLabels, tableFor, type PrinterColumn, type TableDef } from '../table';
import { evalPath, formatJSONPathValue } from '../jsonpath';
import { KubectlError, typeName, type Ctx } from './util';

/** The table a resource prints with (built-in printers, or a CRD's printer columns). */
export function tableForInfo(client: Client, info: ResourceInfo): TableDef {
  if (!info.custom) return tableFor(info.kind);
  const crd = client.api.getObject('customresourcedefinitions.apiextensions.k8s.io', '', `${info.resource}.${info.group}`);
  const ver = (crd?.spec?.versions ?? []).find((v: { name: string }) => v.name === info.version);
  return customResourceTable(ver?.additionalPrinterColumns as PrinterColumn[] | undefined);
}

function displayName(obj: KObject): string {
  const ann = obj.metadata.annotations ?? {};
  if (
    obj.kind === 'StorageClass' &&
    (ann['storageclass.kubernetes.io/is-default-class'] === 'true' || ann['storageclass.beta.kubernetes.io/is-default-class'] === 'true')
  )
    return `${obj.metadata.name} (default)`;
  if (obj.kind === 'IngressClass' && ann['ingressclass.kubernetes.io/is-default-class'] === 'true') return `${obj.metadata.name} (default)`;
  return obj.metadata.name;
}

/** The columns of one resource's table: header cells, and the cells of an object's row at `nowMs` (ms since the epoch). */
export interface TableLayout {
  header: string[];
  row(o: KObject, nowMs: number): string[];
}

/**
 * The human-readable table of one resource as the flags shape it (tableprinter.go): NAMESPACE
 * with -A, NAME (`kind/name` with several kinds or --show-kind), the printer's columns (wide
 * ones with -o wide), -L label columns, LABELS with --show-labels.
 */
export function tableLayout(ctx: Ctx, info: ResourceInfo, wide: boolean, withKind: boolean): TableLayout {
  const allNs = ctx.flags.has('all-namespaces') && ctx.flags.get('all-namespaces') !== 'false';
  const labelCols = (ctx.multi.get('label-columns') ?? []).flatMap((l) => l.split(',')).filter(Boolean);
  const def = tableForInfo(ctx.client, info);
  const showNs = allNs && info.namespaced;
  const keep = def.columns.map((c) => wide || !c.wide);
  const header = [
    ...(showNs ? ['NAMESPACE'] : []),
    ...(def.noName ? [] : ['NAME']),
    ...def.columns.filter((_, i) => keep[i]).map((c) => c.header),
    // printers' formatLabelHeaders: the label key's last path segment, upper-cased
    ...labelCols.map((l) => l.slice(l.lastIndexOf('/') + 1).toUpperCase()),
    ...(ctx.flags.has('show-labels') ? ['LABELS'] : []),
  ];
  const row = (o: KObject, nowMs: number): string[] => {
    const cells = def.row(o, nowMs).filter((_, i) => keep[i]);
    const name = withKind ? `${typeName(info)}/${displayName(o)}` : displayName(o);
    return [
      ...(showNs ? [o.metadata.namespace ?? ''] : []),
      ...(def.noName ? [] : [name]),
      ...cells,
      ...labelCols.map((l) => o.metadata.labels?.[l] ?? ''),
      ...(ctx.flags.has('show-labels') ? [formatLabels(o.metadata.labels)] : []),
    ];
  };
  return { header, row };
}

/** -o custom-columns=HEADER:.path,… (customcolumn.go): "<none>" for missing values. */
export function customColumns(ctx: Ctx, objs: KObject[], spec: string): string {
  if (!spec) throw new KubectlError('error: custom-columns format specified but no custom columns given');
  const colsSpec = spec.split(',').map((c) => {
    const i = c.indexOf(':');
    if (i < 0) throw new KubectlError(`error: unexpected custom-columns spec: ${c}, expected <header>:<json-path-expr>`);
    return { header: c.slice(0, i), path: c.slice(i + 1) };
  });
  const rows: string[][] = ctx.flags.has('no-headers') ? [] : [colsSpec.map((c) => c.header)];
  for (const o of objs) {
    const plain = JSON.parse(JSON.stringify(o));
    rows.push(
      colsSpec.map((c) => {
        const vals = evalPath(plain, c.path);
        return vals.length ? vals.map(formatJSONPathValue).join(',') : '<none>';
      }),
    );
  }
  return formatTable(rows);
}

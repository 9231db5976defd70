/**
 * `kubectl apply --server-side` of kubectl v1.33, as staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go
 * applyOneObject (the `o.ServerSideApply` branch) does it: the whole object is sent as a PATCH
 * `application/apply-patch+yaml` with `fieldManager` (`--field-manager`, default "kubectl") and
 * `force` (`--force-conflicts`); no last-applied-configuration annotation is written; a 409
 * Conflict is wrapped in kubectl's advice text; any other error is printed as the server sent it.
 * Success prints `<kind>/<name> serverside-applied` (`(server dry run)` with `--dry-run=server`).
 *
 * After a successful apply by the default manager "kubectl", kubectl migrates a client-side
 * applied object (saveLastApplyAnnotationIfNecessary, migrateToSSAIfNecessary,
 * k8s.io/client-go/util/csaupgrade): the last-applied annotation is applied once more under the
 * manager "kubectl-last-applied", the fields of the Update managers that own that annotation
 * ("kubectl-client-side-apply") move into kubectl's Apply entry (a JSON patch of
 * metadata.managedFields guarded by a resourceVersion test), and the apply is sent again.
 */
import type { ResourceClient } from '../../client/clientset';
import { StatusError } from '../../api/errors';
import { deepCopy, type KObject } from '../../api/types';
import { hasOwn, setOwn } from '../../api/safe-object';

/** apply.go's annotation (corev1.LastAppliedConfigAnnotation), as ../apply.ts LAST_APPLIED. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** kubectl's default manager for server-side apply (apply.go fieldManagerServerSideApply). */
export const FIELD_MANAGER_SERVER_SIDE_APPLY = 'kubectl';
/** The manager the last-applied annotation is saved under on migration (apply.go fieldManagerLastAppliedAnnotation). */
export const FIELD_MANAGER_LAST_APPLIED = 'kubectl-last-applied';
const MAX_PATCH_RETRY = 5;

/** The advice kubectl appends to a server-side apply conflict (apply.go applyOneObject). */
export function conflictAdvice(message: string): string {
  return `${message}
Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the \`--force-conflicts\` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts`;
}

/** What one server-side apply did: the stored object, or the error kubectl prints. */
export interface ServerSideOutcome {
  object?: KObject;
  warnings: string[];
  /** A StatusError kubectl prints via StandardErrorMessage, or plain text printed after `error: `. */
  error?: { status?: StatusError; text?: string };
}

interface ManagedEntry {
  manager: string;
  operation: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
  [k: string]: unknown;
}

const entriesOf = (o: KObject): ManagedEntry[] =>
  Array.isArray(o.metadata?.managedFields) ? (o.metadata.managedFields as ManagedEntry[]) : [];

/** csaupgrade.FindFieldsOwners for metadata.annotations[last-applied-configuration]. */
function ownsLastApplied(e: ManagedEntry): boolean {
  const ann =
    ((e.fieldsV1?.['f:metadata'] as Record<string, unknown> | undefined)?.['f:annotations'] as Record<string, unknown> | undefined) ?? {};
  return hasOwn(ann, `f:${LAST_APPLIED}`);
}

/** Deep union of two FieldsV1 trees. */
function unionFields(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = deepCopy(a);
  for (const [k, v] of Object.entries(b))
    setOwn(out, k, hasOwn(out, k) ? unionFields(out[k] as Record<string, unknown>, v as Record<string, unknown>) : deepCopy(v));
  return out;
}

/**
 * csaupgrade.UpgradeManagedFieldsPatch: the JSON patch moving the CSA managers' fields into
 * `manager`'s Apply entry, or null when there is nothing to migrate.
 */
export function upgradeManagedFieldsPatch(obj: KObject, csaManagers: Set<string>, manager: string): unknown[] | null {
  const list = entriesOf(obj);
  const csa = list.filter((e) => csaManagers.has(e.manager) && e.operation === 'Update' && !e.subresource);
  if (!csa.length) return null;
  let ssa = list.find((e) => e.manager === manager && e.operation === 'Apply' && !e.subresource);
  const rest = list.filter((e) => !csa.includes(e) && e !== ssa);
  ssa = ssa ? deepCopy(ssa) : { ...deepCopy(csa[0]), manager, operation: 'Apply', fieldsV1: {} };
  for (const e of csa) ssa.fieldsV1 = unionFields(ssa.fieldsV1 ?? {}, e.fieldsV1 ?? {});
  return [
    { op: 'test', path: '/metadata/resourceVersion', value: obj.metadata.resourceVersion },
    { op: 'replace', path: '/metadata/managedFields', value: [...rest, ssa] },
  ];
}

/**
 * Server-side applies `obj` through `rc` (PATCH application/apply-patch+yaml), then migrates a
 * client-side applied object when the manager is kubectl's default. See the file comment.
 */
export function serverSideApplyObject(
  rc: ResourceClient,
  namespace: string,
  name: string,
  obj: KObject,
  opts: { fieldManager: string; force: boolean; dryRun: boolean; fieldValidation: 'Strict' | 'Warn' | 'Ignore' },
): ServerSideOutcome {
  const warnings: string[] = [];
  const patch = (type: 'apply' | 'json', body: unknown, manager: string, force?: boolean): KObject => {
    const r = rc.patch(namespace, name, type, body, {
      fieldManager: manager,
      force,
      dryRun: opts.dryRun,
      fieldValidation: opts.fieldValidation,
      summary: `${type === 'apply' ? 'server-side apply' : 'patch managedFields'} ${rc.info.kind} ${rc.info.namespaced ? `${namespace}/` : ''}${name}`,
    });
    warnings.push(...r.warnings);
    return r.object;
  };
  let applied: KObject;
  try {
    applied = patch('apply', obj, opts.fieldManager, opts.force);
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    if (e.status.code === 409 && e.reason === 'Conflict') return { warnings, error: { text: conflictAdvice(e.status.message) } };
    return { warnings, error: { status: e } };
  }
  if (opts.dryRun || opts.fieldManager !== FIELD_MANAGER_SERVER_SIDE_APPLY) return { object: applied, warnings };
  try {
    // saveLastApplyAnnotationIfNecessary
    const la = applied.metadata.annotations?.[LAST_APPLIED];
    if (la !== undefined && !entriesOf(applied).some((e) => e.operation === 'Apply' && ownsLastApplied(e))) {
      const just = {
        apiVersion: obj.apiVersion,
        kind: obj.kind,
        metadata: { name, ...(rc.info.namespaced ? { namespace } : {}), annotations: { [LAST_APPLIED]: la } },
      } as KObject;
      applied = patch('apply', just, FIELD_MANAGER_LAST_APPLIED);
    }
    // migrateToSSAIfNecessary
    const csa = new Set(
      entriesOf(applied)
        .filter((e) => e.operation === 'Update' && ownsLastApplied(e))
        .map((e) => e.manager),
    );
    let current = applied;
    for (let i = 0; i < MAX_PATCH_RETRY; i++) {
      const jp = upgradeManagedFieldsPatch(current, csa, opts.fieldManager);
      if (!jp) return { object: applied, warnings };
      try {
        patch('json', jp, opts.fieldManager);
        break;
      } catch (e) {
        if (!(e instanceof StatusError) || e.reason !== 'Conflict' || i === MAX_PATCH_RETRY - 1) throw e;
        current = rc.get(namespace, name, { quiet: true });
      }
    }
    // re-send the original apply so that fields dropped from the manifest are removed
    applied = patch('apply', obj, opts.fieldManager, opts.force);
  } catch (e) {
    // kubectl prints the migration failure as a warning; the apply itself succeeded
    warnings.push(`failed to migrate kubectl.kubernetes.io/last-applied-configuration: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { object: applied, warnings };
}

/**
 * `kubectl rollout history|undo` for DaemonSets and StatefulSets, as kubectl's
 * polymorphichelpers (history.go DaemonSetHistoryViewer / StatefulSetHistoryViewer:
 * controlledHistory, printHistory; rollback.go DaemonSetRollbacker / StatefulSetRollbacker:
 * findHistory, daemonSetMatch / statefulsetMatch, the strategic-merge patch of the revision's
 * data). Their history is the ControllerRevisions the object controls; CHANGE-CAUSE is each
 * revision's `kubernetes.io/change-cause` annotation (copied from the object when the
 * controller created the revision).
 */
import { deepCopy, deepEqual, type KObject } from '../../api/types';
import type { Ctx } from './util';
import { formatLabelSelector } from '../../api/labels';
import { describePodTemplate } from './describe-pod';

/**
 * controlledHistory: the ControllerRevisions `o` controls, by revision ascending; `visible`:
 * the LIST by `o`'s selector is drawn in the relay (rollback.go's daemonSetHistory /
 * statefulSetHistory send it).
 */
export function controlledHistory(ctx: Ctx, o: KObject, visible = false): KObject[] {
  return ctx.client
    .resource('apps', 'controllerrevisions')
    .list(o.metadata.namespace, visible ? { labelSelector: formatLabelSelector(o.spec?.selector) } : { quiet: true })
    .items.filter((h) => (h.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === o.metadata.uid))
    .sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0));
}

/** The Pod template a revision's data (`{spec: {template: {…, $patch: replace}}}`) restores. */
export function revisionTemplate(h: KObject): KObject {
  const t = deepCopy(h.data?.spec?.template ?? {});
  delete t.$patch;
  return t;
}

/** printHistory: the REVISION / CHANGE-CAUSE table, or one revision's Pod template. Throws the error text kubectl prints. */
export function printControllerHistory(id: string, history: KObject[], revision: number): string {
  const byRev = new Map<number, KObject>();
  for (const h of history) byRev.set(h.revision ?? 0, h);
  if (!byRev.size) return `${id} \nNo rollout history found.\n`;
  if (revision > 0) {
    const h = byRev.get(revision);
    if (!h) throw new Error('error: unable to find the specified revision');
    return `${id} with revision #${revision}\n${describePodTemplate(revisionTemplate(h))}\n`;
  }
  const w = 10;
  let table = 'REVISION'.padEnd(w) + 'CHANGE-CAUSE\n';
  for (const r of [...byRev.keys()].sort((a, b) => a - b))
    table += `${String(r).padEnd(w)}${byRev.get(r)!.metadata.annotations?.['kubernetes.io/change-cause'] || '<none>'}\n`;
  return `${id} \n${table}\n`;
}

/**
 * findHistory + the match check of DaemonSetRollbacker / StatefulSetRollbacker: the revision to
 * restore (`to` 0: the second newest), or an error / a "skipped" line.
 */
export function controllerRollbackTarget(
  o: KObject,
  history: KObject[],
  to: number,
): { target?: KObject; error?: string; skipped?: string } {
  if (to < 0) return { error: `error: unable to find specified revision ${to} in history` };
  if (to === 0 && history.length <= 1) return { error: 'error: no last revision to roll back to' };
  const target = to === 0 ? history[history.length - 2] : history.find((h) => h.revision === to);
  if (!target) return { error: `error: unable to find specified revision ${to} in history` };
  if (deepEqual(revisionTemplate(target), o.spec?.template ?? {}))
    return { skipped: `skipped rollback (current template already matches revision ${to})` };
  return { target };
}

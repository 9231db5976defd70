/**
 * The dedicated describers of staging/src/k8s.io/kubectl/pkg/describe/describe.go for
 * HorizontalPodAutoscaler (describeHorizontalPodAutoscalerV2 with printDirectionBehavior),
 * Job (describeJob), CronJob (describeCronJob with describeJobTemplate and printActiveJobs),
 * DaemonSet (describeDaemonSet with getPodStatusForController) and PodDisruptionBudget
 * (describePodDisruptionBudgetV1). Checked against real kubectl v1.32 in
 * src/server/testdata/describe.txt.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import type { KObject } from '../../api/types';
import { formatLabelSelector } from '../../api/labels';
import { formatLabels } from '../table';
import { humanDuration } from '../printers';
import { describePodTemplate } from './describe-pod';
import {
  PrefixWriter,
  controllerOf,
  describeEvents,
  eventsFor,
  goQuantity,
  intOrString,
  printAnnotationsMultiline,
  printLabelsMultiline,
  rfc1123z,
} from './describe-util';
import type { DescribeEnv } from './describe-storage';

/** labels.Selector.String() of a LabelSelector: "" for an empty selector (LabelSelectorAsSelector). */
function selectorText(sel: LabelSelector | undefined): string {
  return formatLabelSelector(sel).replace(/^<none>$/, '');
}

/** One "Metrics:" line of describeHorizontalPodAutoscalerV2 for spec.metrics[i]. */
function hpaMetricLine(w: PrefixWriter, metric: KObject, current: KObject | undefined): void {
  const unknown = '<unknown>';
  switch (metric.type) {
    case 'External': {
      const ext = metric.external ?? {};
      if (ext.target?.averageValue !== undefined) {
        const cur =
          current?.external && current.external.current?.averageValue !== undefined
            ? goQuantity(current.external.current.averageValue)
            : unknown;
        w.write(1, `"${ext.metric?.name ?? ''}" (target average value):\t${cur} / ${goQuantity(ext.target.averageValue)}\n`);
      } else {
        const cur = current?.external ? goQuantity(current.external.current?.value) : unknown;
        w.write(1, `"${ext.metric?.name ?? ''}" (target value):\t${cur} / ${goQuantity(ext.target?.value)}\n`);
      }
      return;
    }
    case 'Pods': {
      const cur = current?.pods ? goQuantity(current.pods.current?.averageValue) : unknown;
      w.write(1, `"${metric.pods?.metric?.name ?? ''}" on pods:\t${cur} / ${goQuantity(metric.pods?.target?.averageValue)}\n`);
      return;
    }
    case 'Object': {
      const o = metric.object ?? {};
      w.write(1, `"${o.metric?.name ?? ''}" on ${o.describedObject?.kind ?? ''}/${o.describedObject?.name ?? ''} `);
      if (o.target?.type === 'AverageValue') {
        const cur = current?.object ? goQuantity(current.object.current?.averageValue) : unknown;
        w.write(0, `(target average value):\t${cur} / ${goQuantity(o.target.averageValue)}\n`);
      } else {
        const cur = current?.object ? goQuantity(current.object.current?.value) : unknown;
        w.write(0, `(target value):\t${cur} / ${goQuantity(o.target?.value)}\n`);
      }
      return;
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = metric.type === 'Resource' ? 'resource' : 'containerResource';
      const src = metric[key] ?? {};
      const cur = current?.[key];
      w.write(
        1,
        key === 'resource'
          ? `resource ${src.name ?? ''} on pods`
          : `resource ${src.name ?? ''} of container "${src.container ?? ''}" on pods`,
      );
      if (src.target?.averageValue !== undefined) {
        w.write(0, `:\t${cur ? goQuantity(cur.current?.averageValue) : unknown} / ${goQuantity(src.target.averageValue)}\n`);
      } else {
        const c =
          cur && cur.current?.averageUtilization !== undefined
            ? `${cur.current.averageUtilization}% (${goQuantity(cur.current.averageValue)})`
            : unknown;
        const target = src.target?.averageUtilization !== undefined ? `${src.target.averageUtilization}%` : '<auto>';
        w.write(1, `(as a percentage of request):\t${c} / ${target}\n`);
      }
      return;
    }
    default:
      w.write(1, `<unknown metric type "${String(metric.type ?? '')}">\n`);
  }
}

/** printDirectionBehavior. */
function printDirectionBehavior(w: PrefixWriter, direction: string, rules: KObject | undefined): void {
  if (!rules) return;
  w.write(1, `${direction}:\n`);
  if (rules.stabilizationWindowSeconds !== undefined && rules.stabilizationWindowSeconds !== null)
    w.write(2, `Stabilization Window: ${rules.stabilizationWindowSeconds} seconds\n`);
  const policies: KObject[] = rules.policies ?? [];
  if (!policies.length) return;
  w.write(2, `Select Policy: ${rules.selectPolicy ?? 'Max'}\n`);
  w.write(2, 'Policies:\n');
  for (const p of policies) w.write(3, `- Type: ${p.type}\tValue: ${p.value ?? 0}\tPeriod: ${p.periodSeconds ?? 0} seconds\n`);
}

/** describeHorizontalPodAutoscalerV2. */
export function describeHPA(hpa: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  const sp = hpa.spec ?? {};
  const st = hpa.status ?? {};
  w.write(0, `Name:\t${hpa.metadata.name}\n`);
  w.write(0, `Namespace:\t${hpa.metadata.namespace ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', hpa.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', hpa.metadata.annotations);
  w.write(0, `CreationTimestamp:\t${rfc1123z(hpa.metadata.creationTimestamp)}\n`);
  w.write(0, `Reference:\t${sp.scaleTargetRef?.kind ?? ''}/${sp.scaleTargetRef?.name ?? ''}\n`);
  w.write(0, 'Metrics:\t( current / target )\n');
  const currents: KObject[] = st.currentMetrics ?? [];
  (sp.metrics ?? []).forEach((m: KObject, i: number) => hpaMetricLine(w, m, currents[i]));
  w.write(0, `Min replicas:\t${sp.minReplicas ?? '<unset>'}\n`);
  w.write(0, `Max replicas:\t${sp.maxReplicas ?? 0}\n`);
  if (sp.behavior) {
    w.write(0, 'Behavior:\n');
    printDirectionBehavior(w, 'Scale Up', sp.behavior.scaleUp);
    printDirectionBehavior(w, 'Scale Down', sp.behavior.scaleDown);
  }
  w.write(0, `${sp.scaleTargetRef?.kind ?? ''} pods:\t${st.currentReplicas ?? 0} current / ${st.desiredReplicas ?? 0} desired\n`);
  if (st.conditions?.length) {
    w.write(0, 'Conditions:\n');
    w.write(1, 'Type\tStatus\tReason\tMessage\n');
    w.write(1, '----\t------\t------\t-------\n');
    for (const c of st.conditions) w.write(1, `${c.type}\t${c.status}\t${c.reason ?? ''}\t${c.message ?? ''}\n`);
  }
  describeEvents(w, eventsFor(d.events, hpa), d.ctx.nowMs);
  return w.toString();
}

/** describeJob. */
export function describeJob(job: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  const sp = job.spec ?? {};
  const st = job.status ?? {};
  const set = (v: unknown): boolean => v !== undefined && v !== null;
  w.write(0, `Name:\t${job.metadata.name}\n`);
  w.write(0, `Namespace:\t${job.metadata.namespace ?? ''}\n`);
  w.write(0, `Selector:\t${selectorText(sp.selector)}\n`);
  printLabelsMultiline(w, 'Labels', job.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', job.metadata.annotations);
  const ctl = controllerOf(job);
  if (ctl) w.write(0, `Controlled By:\t${ctl}\n`);
  if (set(sp.parallelism)) w.write(0, `Parallelism:\t${sp.parallelism}\n`);
  w.write(0, `Completions:\t${set(sp.completions) ? sp.completions : '<unset>'}\n`);
  if (set(sp.completionMode)) w.write(0, `Completion Mode:\t${sp.completionMode}\n`);
  if (set(sp.suspend)) w.write(0, `Suspend:\t${sp.suspend}\n`);
  if (set(sp.backoffLimit)) w.write(0, `Backoff Limit:\t${sp.backoffLimit}\n`);
  if (set(sp.ttlSecondsAfterFinished)) w.write(0, `TTL Seconds After Finished:\t${sp.ttlSecondsAfterFinished}\n`);
  if (st.startTime) w.write(0, `Start Time:\t${rfc1123z(st.startTime)}\n`);
  if (st.completionTime) w.write(0, `Completed At:\t${rfc1123z(st.completionTime)}\n`);
  if (st.startTime && st.completionTime)
    w.write(0, `Duration:\t${humanDuration(Date.parse(st.completionTime) - Date.parse(st.startTime))}\n`);
  if (set(sp.activeDeadlineSeconds)) w.write(0, `Active Deadline Seconds:\t${sp.activeDeadlineSeconds}s\n`);
  const ready = set(st.ready) ? ` (${st.ready} Ready)` : '';
  w.write(0, `Pods Statuses:\t${st.active ?? 0} Active${ready} / ${st.succeeded ?? 0} Succeeded / ${st.failed ?? 0} Failed\n`);
  if (sp.completionMode === 'Indexed') w.write(0, `Completed Indexes:\t${capIndexes(st.completedIndexes ?? '', 50)}\n`);
  describePodTemplate(sp.template ?? {}, w);
  describeEvents(w, eventsFor(d.events, job), d.ctx.nowMs);
  return w.toString();
}

/** capIndexesListOrNone: the completed indexes, cut after the first comma past `softLimit` characters. */
function capIndexes(indexes: string, softLimit: number): string {
  if (!indexes) return '<none>';
  let ix = softLimit;
  while (ix < indexes.length && indexes[ix] !== ',') ix++;
  return ix >= indexes.length ? indexes : `${indexes.slice(0, ix + 1)}...`;
}

/** describeCronJob. */
export function describeCronJob(cj: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  const sp = cj.spec ?? {};
  const unsetOr = (v: unknown, suffix = ''): string => (v === undefined || v === null ? '<unset>' : `${v}${suffix}`);
  w.write(0, `Name:\t${cj.metadata.name}\n`);
  w.write(0, `Namespace:\t${cj.metadata.namespace ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', cj.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', cj.metadata.annotations);
  w.write(0, `Schedule:\t${sp.schedule ?? ''}\n`);
  w.write(0, `Concurrency Policy:\t${sp.concurrencyPolicy ?? ''}\n`);
  w.write(0, `Suspend:\t${sp.suspend === undefined || sp.suspend === null ? '<unset>' : sp.suspend ? 'True' : 'False'}\n`);
  w.write(0, `Successful Job History Limit:\t${unsetOr(sp.successfulJobsHistoryLimit)}\n`);
  w.write(0, `Failed Job History Limit:\t${unsetOr(sp.failedJobsHistoryLimit)}\n`);
  w.write(0, `Starting Deadline Seconds:\t${unsetOr(sp.startingDeadlineSeconds, 's')}\n`);
  // describeJobTemplate
  const js = sp.jobTemplate?.spec ?? {};
  w.write(0, `Selector:\t${js.selector ? selectorText(js.selector) : '<unset>'}\n`);
  w.write(0, `Parallelism:\t${unsetOr(js.parallelism)}\n`);
  w.write(0, `Completions:\t${unsetOr(js.completions)}\n`);
  if (js.activeDeadlineSeconds !== undefined && js.activeDeadlineSeconds !== null)
    w.write(0, `Active Deadline Seconds:\t${js.activeDeadlineSeconds}s\n`);
  describePodTemplate(js.template ?? {}, w);
  w.write(0, `Last Schedule Time:\t${cj.status?.lastScheduleTime ? rfc1123z(cj.status.lastScheduleTime) : '<unset>'}\n`);
  const active: KObject[] = cj.status?.active ?? [];
  w.write(0, `Active Jobs:\t${active.length ? active.map((j) => j.name).join(', ') : '<none>'}\n`);
  describeEvents(w, eventsFor(d.events, cj), d.ctx.nowMs);
  return w.toString();
}

/** getPodStatusForController: phases of the Pods matching `selector` whose controller is `owner`. */
function podPhases(d: DescribeEnv, owner: KObject): string {
  const pods = d.ctx.client
    .resource('', 'pods')
    .list(owner.metadata.namespace, { labelSelector: selectorText(owner.spec?.selector) || undefined, quiet: true })
    .items.filter((p) => (p.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === owner.metadata.uid));
  const count = (ph: string): number => pods.filter((p) => p.status?.phase === ph).length;
  return `${count('Running')} Running / ${count('Pending')} Waiting / ${count('Succeeded')} Succeeded / ${count('Failed')} Failed`;
}

/** describeDaemonSet. */
export function describeDaemonSet(ds: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  const st = ds.status ?? {};
  w.write(0, `Name:\t${ds.metadata.name}\n`);
  w.write(0, `Namespace:\t${ds.metadata.namespace ?? ''}\n`);
  w.write(0, `Selector:\t${selectorText(ds.spec?.selector)}\n`);
  w.write(0, `Node-Selector:\t${formatLabels(ds.spec?.template?.spec?.nodeSelector)}\n`);
  printLabelsMultiline(w, 'Labels', ds.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', ds.metadata.annotations);
  w.write(0, `Desired Number of Nodes Scheduled: ${st.desiredNumberScheduled ?? 0}\n`);
  w.write(0, `Current Number of Nodes Scheduled: ${st.currentNumberScheduled ?? 0}\n`);
  w.write(0, `Number of Nodes Scheduled with Up-to-date Pods: ${st.updatedNumberScheduled ?? 0}\n`);
  w.write(0, `Number of Nodes Scheduled with Available Pods: ${st.numberAvailable ?? 0}\n`);
  w.write(0, `Number of Nodes Misscheduled: ${st.numberMisscheduled ?? 0}\n`);
  w.write(0, `Pods Status:\t${podPhases(d, ds)}\n`);
  describePodTemplate(ds.spec?.template ?? {}, w);
  describeEvents(w, eventsFor(d.events, ds), d.ctx.nowMs);
  return w.toString();
}

/** describePodDisruptionBudgetV1. */
export function describePDB(pdb: KObject, d: DescribeEnv): string {
  const w = new PrefixWriter();
  const sp = pdb.spec ?? {};
  const st = pdb.status ?? {};
  w.write(0, `Name:\t${pdb.metadata.name}\n`);
  w.write(0, `Namespace:\t${pdb.metadata.namespace ?? ''}\n`);
  if (sp.minAvailable !== undefined && sp.minAvailable !== null) w.write(0, `Min available:\t${intOrString(sp.minAvailable)}\n`);
  else if (sp.maxUnavailable !== undefined && sp.maxUnavailable !== null)
    w.write(0, `Max unavailable:\t${intOrString(sp.maxUnavailable)}\n`);
  w.write(0, `Selector:\t${sp.selector ? formatLabelSelector(sp.selector) : '<unset>'}\n`);
  w.write(0, 'Status:\n');
  w.write(2, `Allowed disruptions:\t${st.disruptionsAllowed ?? 0}\n`);
  w.write(2, `Current:\t${st.currentHealthy ?? 0}\n`);
  w.write(2, `Desired:\t${st.desiredHealthy ?? 0}\n`);
  w.write(2, `Total:\t${st.expectedPods ?? 0}\n`);
  describeEvents(w, eventsFor(d.events, pdb), d.ctx.nowMs);
  return w.toString();
}

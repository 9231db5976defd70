/**
 * The HPA's arithmetic, after kubernetes/kubernetes pkg/controller/podautoscaler:
 * replica_calculator.go (groupPods, calculatePodRequests, GetResourceReplicas' unready/missing
 * adjustments, calcPlainMetricReplicas), metrics/utilization.go (GetResourceUtilizationRatio,
 * GetMetricUsageRatio) and horizontal.go (stabilizeRecommendation[WithBehaviors],
 * convertDesiredReplicasWithRules, convertDesiredReplicasWithBehaviorRate, the scale-up/down
 * limits, setCondition). Pure functions; times are simulated ms; resource values are milli-units
 * (Quantity.MilliValue: millicores, or bytes × 1000).
 */
import type { Pod } from '../api/objects';
import type { Container } from 'kubernetes-types/core/v1';
import { quantityMilliValue } from '../api/quantity';

/** --horizontal-pod-autoscaler-tolerance default. */
export const Tolerance = 0.1;
/** --horizontal-pod-autoscaler-cpu-initialization-period default (5 min). */
export const CpuInitializationPeriodMs = 5 * 60_000;
/** --horizontal-pod-autoscaler-initial-readiness-delay default (30 s). */
export const DelayOfInitialReadinessStatusMs = 30_000;
/** --horizontal-pod-autoscaler-downscale-stabilization default (5 min). */
export const DownscaleStabilisationWindowMs = 5 * 60_000;
/** scaleUpLimitFactor / scaleUpLimitMinimum (the legacy rate limit without behavior). */
export const ScaleUpLimitFactor = 2;
export const ScaleUpLimitMinimum = 4;

/** One Pod's metric sample (metricsclient.PodMetric), milli-units. */
export interface PodMetric {
  value: number;
  timestamp: number;
  windowMs: number;
}

export type PodMetricsInfo = Map<string, PodMetric>;

/** groupPods: ready count and the unready / missing / ignored Pod names. */
export function groupPods(
  pods: Pod[],
  metrics: PodMetricsInfo,
  resource: string,
  now: number,
): { ready: number; unready: Set<string>; missing: Set<string>; ignored: Set<string> } {
  const unready = new Set<string>();
  const missing = new Set<string>();
  const ignored = new Set<string>();
  let ready = 0;
  for (const pod of pods) {
    const name = pod.metadata.name;
    if (pod.metadata.deletionTimestamp || pod.status?.phase === 'Failed') {
      ignored.add(name);
      continue;
    }
    if (pod.status?.phase === 'Pending') {
      unready.add(name);
      continue;
    }
    const metric = metrics.get(name);
    if (!metric) {
      missing.add(name);
      continue;
    }
    if (resource === 'cpu') {
      const cond = (pod.status?.conditions ?? []).find((c) => c.type === 'Ready');
      const start = pod.status?.startTime ? Date.parse(pod.status.startTime) : undefined;
      let isUnready: boolean;
      if (!cond || start === undefined) isUnready = true;
      else {
        const ltt = cond.lastTransitionTime ? Date.parse(cond.lastTransitionTime) : 0;
        if (start + CpuInitializationPeriodMs > now) isUnready = cond.status === 'False' || metric.timestamp < ltt + metric.windowMs;
        else isUnready = cond.status === 'False' && start + DelayOfInitialReadinessStatusMs > ltt;
      }
      if (isUnready) {
        unready.add(name);
        continue;
      }
    }
    ready++;
  }
  return { ready, unready, missing, ignored };
}

/**
 * calculatePodRequests: per Pod, the sum of its (regular and restartable init) containers'
 * requests of `resource`, milli-units. Throws "missing request for cpu in container c of Pod p".
 */
export function calculatePodRequests(pods: Pod[], container: string, resource: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const pod of pods) {
    let sum = 0;
    const containers: Container[] = [
      ...(pod.spec?.containers ?? []),
      ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
    ];
    for (const c of containers) {
      if (container && container !== c.name) continue;
      const req = c.resources?.requests?.[resource];
      if (req === undefined || req === null)
        throw new Error(`missing request for ${resource} in container ${c.name} of Pod ${pod.metadata.name}`);
      sum += quantityMilliValue(req);
    }
    out.set(pod.metadata.name, sum);
  }
  return out;
}

/** GetResourceUtilizationRatio: [ratio, utilization %, raw average (milli)]. Throws "no metrics returned matched known pods". */
export function getResourceUtilizationRatio(
  metrics: PodMetricsInfo,
  requests: Map<string, number>,
  targetUtilization: number,
): [number, number, number] {
  let total = 0;
  let reqTotal = 0;
  let n = 0;
  for (const [name, m] of metrics) {
    const r = requests.get(name);
    if (r === undefined) continue;
    total += m.value;
    reqTotal += r;
    n++;
  }
  if (reqTotal === 0) throw new Error('no metrics returned matched known pods');
  const utilization = Math.trunc((total * 100) / reqTotal);
  return [utilization / targetUtilization, utilization, Math.trunc(total / n)];
}

/** GetMetricUsageRatio: [ratio, average usage (milli)]. */
export function getMetricUsageRatio(metrics: PodMetricsInfo, targetUsage: number): [number, number] {
  let total = 0;
  for (const m of metrics.values()) total += m.value;
  const usage = Math.trunc(total / metrics.size);
  return [usage / targetUsage, usage];
}

const within = (ratio: number) => Math.abs(1 - ratio) <= Tolerance;

/**
 * GetResourceReplicas after the metrics were fetched: [replicas, utilization %, raw average].
 * Unready Pods count as 0 % on a scale-up; Pods without metrics as 100 % (or the target) on a
 * scale-down and 0 % on a scale-up; no change within the tolerance or when the adjustment would
 * flip the direction.
 */
export function calcResourceReplicas(
  currentReplicas: number,
  targetUtilization: number,
  resource: string,
  pods: Pod[],
  metrics: PodMetricsInfo,
  now: number,
  container = '',
): [number, number, number] {
  if (pods.length === 0) throw new Error('no pods returned by selector while calculating replica count');
  const m = new Map(metrics);
  const g = groupPods(pods, m, resource, now);
  for (const n of [...g.ignored, ...g.unready]) m.delete(n);
  if (m.size === 0) throw new Error('did not receive metrics for targeted pods (pods might be unready)');
  const requests = calculatePodRequests(pods, container, resource);
  const [ratio, utilization, raw] = getResourceUtilizationRatio(m, requests, targetUtilization);
  const scaleUpWithUnready = g.unready.size > 0 && ratio > 1;
  if (!scaleUpWithUnready && g.missing.size === 0) {
    if (within(ratio)) return [currentReplicas, utilization, raw];
    return [Math.ceil(ratio * g.ready), utilization, raw];
  }
  if (g.missing.size > 0) {
    const fallback = Math.max(100, targetUtilization);
    for (const n of g.missing)
      m.set(n, { value: ratio < 1 ? Math.trunc(((requests.get(n) ?? 0) * fallback) / 100) : 0, timestamp: 0, windowMs: 0 });
    if (ratio === 1) for (const n of g.missing) m.delete(n);
  }
  if (scaleUpWithUnready) for (const n of g.unready) m.set(n, { value: 0, timestamp: 0, windowMs: 0 });
  const [newRatio] = getResourceUtilizationRatio(m, requests, targetUtilization);
  if (within(newRatio) || (ratio < 1 && newRatio > 1) || (ratio > 1 && newRatio < 1)) return [currentReplicas, utilization, raw];
  const next = Math.ceil(newRatio * m.size);
  if ((newRatio < 1 && next > currentReplicas) || (newRatio > 1 && next < currentReplicas)) return [currentReplicas, utilization, raw];
  return [next, utilization, raw];
}

/** calcPlainMetricReplicas (AverageValue targets): [replicas, average usage (milli)]. */
export function calcPlainMetricReplicas(
  currentReplicas: number,
  targetUsage: number,
  resource: string,
  pods: Pod[],
  metrics: PodMetricsInfo,
  now: number,
): [number, number] {
  const m = new Map(metrics);
  const g = groupPods(pods, m, resource, now);
  for (const n of [...g.ignored, ...g.unready]) m.delete(n);
  if (m.size === 0) throw new Error('did not receive metrics for targeted pods (pods might be unready)');
  const [ratio, usage] = getMetricUsageRatio(m, targetUsage);
  const scaleUpWithUnready = g.unready.size > 0 && ratio > 1;
  if (!scaleUpWithUnready && g.missing.size === 0) {
    if (within(ratio)) return [currentReplicas, usage];
    return [Math.ceil(ratio * g.ready), usage];
  }
  for (const n of g.missing) m.set(n, { value: ratio < 1 ? targetUsage : 0, timestamp: 0, windowMs: 0 });
  if (scaleUpWithUnready) for (const n of g.unready) m.set(n, { value: 0, timestamp: 0, windowMs: 0 });
  const [newRatio] = getMetricUsageRatio(m, targetUsage);
  if (within(newRatio) || (ratio < 1 && newRatio > 1) || (ratio > 1 && newRatio < 1)) return [currentReplicas, usage];
  const next = Math.ceil(newRatio * m.size);
  if ((newRatio < 1 && next > currentReplicas) || (newRatio > 1 && next < currentReplicas)) return [currentReplicas, usage];
  return [next, usage];
}

// ---- normalization (horizontal.go) --------------------------------------------------------

export interface Recommendation {
  recommendation: number;
  timestamp: number;
}

export interface ScaleEvent {
  replicaChange: number;
  timestamp: number;
}

/** autoscaling/v2 HPAScalingRules after defaulting. */
export interface ScalingRules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: 'Max' | 'Min' | 'Disabled';
  policies?: { type: 'Pods' | 'Percent'; value: number; periodSeconds: number }[];
}

/** stabilizeRecommendation (no behavior): the highest recommendation of the last 5 minutes; records this one. */
export function stabilizeRecommendation(
  recs: Recommendation[],
  desired: number,
  now: number,
  windowMs = DownscaleStabilisationWindowMs,
): number {
  let max = desired;
  let old = -1;
  const cutoff = now - windowMs;
  recs.forEach((r, i) => {
    if (r.timestamp < cutoff) old = i;
    else if (r.recommendation > max) max = r.recommendation;
  });
  if (old >= 0) recs[old] = { recommendation: desired, timestamp: now };
  else recs.push({ recommendation: desired, timestamp: now });
  return max;
}

/** stabilizeRecommendationWithBehaviors: [recommendation, reason, message]; records this one. */
export function stabilizeRecommendationWithBehaviors(
  recs: Recommendation[],
  current: number,
  desired: number,
  up: ScalingRules,
  down: ScalingRules,
  now: number,
): [number, string, string] {
  const upCutoff = now - (up.stabilizationWindowSeconds ?? 0) * 1000;
  const downCutoff = now - (down.stabilizationWindowSeconds ?? 300) * 1000;
  let upRec = desired;
  let downRec = desired;
  let old = -1;
  recs.forEach((r, i) => {
    if (r.timestamp > upCutoff) upRec = Math.min(r.recommendation, upRec);
    if (r.timestamp > downCutoff) downRec = Math.max(r.recommendation, downRec);
    if (r.timestamp < upCutoff && r.timestamp < downCutoff) old = i;
  });
  let rec = current;
  if (rec < upRec) rec = upRec;
  if (rec > downRec) rec = downRec;
  if (old >= 0) recs[old] = { recommendation: desired, timestamp: now };
  else recs.push({ recommendation: desired, timestamp: now });
  if (desired >= current)
    return [rec, 'ScaleUpStabilized', 'recent recommendations were lower than current one, applying the lowest recent recommendation'];
  return [rec, 'ScaleDownStabilized', 'recent recommendations were higher than current one, applying the highest recent recommendation'];
}

/** convertDesiredReplicasWithRules: clamps to [min, min(max, max(2·current, 4))]. */
export function convertDesiredReplicasWithRules(current: number, desired: number, min: number, max: number): [number, string, string] {
  const upLimit = Math.max(ScaleUpLimitFactor * current, ScaleUpLimitMinimum);
  let maximum: number;
  let reason: string;
  let message: string;
  if (max > upLimit) {
    maximum = upLimit;
    reason = 'ScaleUpLimit';
    message = 'the desired replica count is increasing faster than the maximum scale rate';
  } else {
    maximum = max;
    reason = 'TooManyReplicas';
    message = 'the desired replica count is more than the maximum replica count';
  }
  if (desired < min) return [min, 'TooFewReplicas', 'the desired replica count is less than the minimum replica count'];
  if (desired > maximum) return [maximum, reason, message];
  return [desired, 'DesiredWithinRange', 'the desired count is within the acceptable range'];
}

function changeInPeriod(periodSeconds: number, events: ScaleEvent[], now: number): number {
  const cutoff = now - periodSeconds * 1000;
  return events.filter((e) => e.timestamp > cutoff).reduce((s, e) => s + e.replicaChange, 0);
}

/** calculateScaleUpLimitWithScalingRules. */
export function scaleUpLimit(current: number, ups: ScaleEvent[], downs: ScaleEvent[], rules: ScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const minPolicy = rules.selectPolicy === 'Min';
  let result = minPolicy ? Infinity : -Infinity;
  for (const p of rules.policies ?? []) {
    const start = current - changeInPeriod(p.periodSeconds, ups, now) + changeInPeriod(p.periodSeconds, downs, now);
    const proposed = p.type === 'Pods' ? start + p.value : Math.ceil(start * (1 + p.value / 100));
    result = minPolicy ? Math.min(result, proposed) : Math.max(result, proposed);
  }
  return result;
}

/** calculateScaleDownLimitWithBehaviors. */
export function scaleDownLimit(current: number, ups: ScaleEvent[], downs: ScaleEvent[], rules: ScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const minPolicy = rules.selectPolicy === 'Min';
  let result = minPolicy ? -Infinity : Infinity;
  for (const p of rules.policies ?? []) {
    const start = current - changeInPeriod(p.periodSeconds, ups, now) + changeInPeriod(p.periodSeconds, downs, now);
    const proposed = p.type === 'Pods' ? start - p.value : Math.trunc(start * (1 - p.value / 100));
    result = minPolicy ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}

/** convertDesiredReplicasWithBehaviorRate: [replicas, ScalingLimited reason, message]. */
export function convertDesiredReplicasWithBehaviorRate(
  current: number,
  desired: number,
  min: number,
  max: number,
  up: ScalingRules,
  down: ScalingRules,
  ups: ScaleEvent[],
  downs: ScaleEvent[],
  now: number,
): [number, string, string] {
  if (desired > current) {
    const limit = Math.max(scaleUpLimit(current, ups, downs, up, now), current);
    const [allowed, reason, message] =
      max > limit
        ? [limit, 'ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate']
        : [max, 'TooManyReplicas', 'the desired replica count is more than the maximum replica count'];
    if (desired > allowed) return [allowed, reason, message];
  } else if (desired < current) {
    const limit = Math.min(scaleDownLimit(current, ups, downs, down, now), current);
    const [allowed, reason, message] =
      min < limit
        ? [limit, 'ScaleDownLimit', 'the desired replica count is decreasing faster than the maximum scale rate']
        : [min, 'TooFewReplicas', 'the desired replica count is less than the minimum replica count'];
    if (desired < allowed) return [allowed, reason, message];
  }
  return [desired, 'DesiredWithinRange', 'the desired count is within the acceptable range'];
}

/** autoscaling/v2 HorizontalPodAutoscalerCondition. */
export interface HPACondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** setConditionInList: lastTransitionTime changes only with the status. */
export function setCondition(
  list: HPACondition[],
  type: string,
  status: HPACondition['status'],
  reason: string,
  message: string,
  now: string,
): HPACondition[] {
  const out = list.map((c) => ({ ...c }));
  let c = out.find((x) => x.type === type);
  if (!c) {
    c = { type, status: 'Unknown' };
    delete (c as Partial<HPACondition>).status;
    out.push(c);
  }
  if (c.status !== status) c.lastTransitionTime = now;
  c.status = status;
  c.reason = reason;
  c.message = message;
  return out.map((x) => ({
    type: x.type,
    status: x.status,
    lastTransitionTime: x.lastTransitionTime,
    reason: x.reason,
    message: x.message,
  }));
}

/**
 * An autoscaling/v1 HorizontalPodAutoscaler's status, as kubernetes/kubernetes
 * pkg/apis/autoscaling/v1/conversion.go converts it (Convert_autoscaling_HorizontalPodAutoscaler_To_v1_…
 * and back).
 *
 * The store keeps an HPA in the version it was written in (api/objects.ts AnyHorizontalPodAutoscaler),
 * so the controller (podautoscaler.ts) works on the autoscaling/v2 view of a v1 object and writes
 * back what a v1 read shows upstream: status has only observedGeneration, lastScaleTime,
 * currentReplicas, desiredReplicas and currentCPUUtilizationPercentage (from the cpu Resource
 * metric's averageUtilization); the v2 currentMetrics and conditions go, JSON-encoded in their v1
 * form, into the annotations `autoscaling.alpha.kubernetes.io/current-metrics` and
 * `autoscaling.alpha.kubernetes.io/conditions` (set only when non-empty, dropped otherwise).
 */
import type * as autoscaling from 'kubernetes-types/autoscaling/v2';
import type * as autoscalingv1 from 'kubernetes-types/autoscaling/v1';
import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerV1 } from '../api/objects';

/** autoscaling.MetricStatusesAnnotation. */
export const MetricStatusesAnnotation = 'autoscaling.alpha.kubernetes.io/current-metrics';
/** autoscaling.HorizontalPodAutoscalerConditionsAnnotation. */
export const HorizontalPodAutoscalerConditionsAnnotation = 'autoscaling.alpha.kubernetes.io/conditions';

/** The v2 status the controller reads and writes. */
export type V2Status = NonNullable<HorizontalPodAutoscaler['status']>;
type V1Status = autoscalingv1.HorizontalPodAutoscalerStatus;
type V1MetricStatus = {
  type: string;
  resource?: { name: string; currentAverageUtilization?: number; currentAverageValue: string };
  containerResource?: { name: string; container: string; currentAverageUtilization?: number; currentAverageValue: string };
};

/** A JSON array from an annotation, or undefined (absent or not an array of objects). */
function parseArray(s: string | undefined): Record<string, unknown>[] | undefined {
  if (s === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(s);
    return Array.isArray(v) && v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x))
      ? (v as Record<string, unknown>[])
      : undefined;
  } catch {
    return undefined;
  }
}

/** Convert_autoscaling_MetricStatus_To_v1_MetricStatus for the resource kinds (the others keep their type only). */
function metricStatusToV1(m: autoscaling.MetricStatus): V1MetricStatus {
  const out: V1MetricStatus = { type: m.type };
  const cur = (c: autoscaling.MetricValueStatus | undefined) => {
    const o: { currentAverageUtilization?: number; currentAverageValue: string } = { currentAverageValue: c?.averageValue ?? '0' };
    return c?.averageUtilization !== undefined ? { currentAverageUtilization: c.averageUtilization, ...o } : o;
  };
  if (m.resource) out.resource = { name: m.resource.name, ...cur(m.resource.current) };
  if (m.containerResource)
    out.containerResource = {
      name: m.containerResource.name,
      container: m.containerResource.container,
      ...cur(m.containerResource.current),
    };
  return out;
}

/** Convert_v1_MetricStatus_To_autoscaling_MetricStatus (the inverse of {@link metricStatusToV1}). */
function metricStatusFromV1(m: Record<string, unknown>): autoscaling.MetricStatus {
  const v = m as V1MetricStatus;
  const out: autoscaling.MetricStatus = { type: String(v.type ?? '') };
  const cur = (r: { currentAverageUtilization?: number; currentAverageValue?: string }): autoscaling.MetricValueStatus => {
    const c: autoscaling.MetricValueStatus = {};
    if (r.currentAverageValue !== undefined) c.averageValue = r.currentAverageValue;
    if (r.currentAverageUtilization !== undefined) c.averageUtilization = r.currentAverageUtilization;
    return c;
  };
  if (v.resource) out.resource = { name: v.resource.name, current: cur(v.resource) };
  if (v.containerResource)
    out.containerResource = { name: v.containerResource.name, container: v.containerResource.container, current: cur(v.containerResource) };
  return out;
}

/**
 * The v2 status of a stored v1 HPA (Convert_v1_HorizontalPodAutoscaler_To_autoscaling…): the
 * counters and lastScaleTime from status, currentMetrics from the current-metrics annotation
 * (else one cpu Resource entry from currentCPUUtilizationPercentage), conditions from the
 * conditions annotation. An annotation that is not a JSON array of objects is ignored.
 */
export function statusFromV1(hpa: HorizontalPodAutoscalerV1): V2Status {
  const s: Partial<V1Status> = hpa.status ?? {};
  const ann = hpa.metadata.annotations ?? {};
  const out: V2Status = { desiredReplicas: s.desiredReplicas ?? 0 };
  if (s.observedGeneration !== undefined) out.observedGeneration = s.observedGeneration;
  if (s.lastScaleTime !== undefined) out.lastScaleTime = s.lastScaleTime;
  if (s.currentReplicas) out.currentReplicas = s.currentReplicas;
  const metrics = parseArray(
    Object.prototype.hasOwnProperty.call(ann, MetricStatusesAnnotation) ? ann[MetricStatusesAnnotation] : undefined,
  );
  if (metrics) out.currentMetrics = metrics.map(metricStatusFromV1);
  else if (s.currentCPUUtilizationPercentage !== undefined)
    out.currentMetrics = [
      { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: s.currentCPUUtilizationPercentage } } },
    ];
  const conds = parseArray(
    Object.prototype.hasOwnProperty.call(ann, HorizontalPodAutoscalerConditionsAnnotation)
      ? ann[HorizontalPodAutoscalerConditionsAnnotation]
      : undefined,
  );
  if (conds) out.conditions = conds as unknown as autoscaling.HorizontalPodAutoscalerCondition[];
  return out;
}

/**
 * What a v1 read shows of a v2 status (Convert_autoscaling_HorizontalPodAutoscaler_To_v1…): the v1
 * status (Go field order; currentReplicas always, as v1 has no omitempty on it) and `annotations`
 * with the round-trip annotations replaced (DropRoundTripHorizontalPodAutoscalerAnnotations, then
 * current-metrics and conditions when non-empty; keys sorted, as Go encodes a map). `annotations`
 * is undefined when the result has none.
 */
export function statusToV1(
  status: V2Status,
  annotations: Readonly<Record<string, string>> | undefined,
): { status: V1Status; annotations: Record<string, string> | undefined } {
  const out = {} as V1Status;
  if (status.observedGeneration !== undefined) out.observedGeneration = status.observedGeneration;
  if (status.lastScaleTime !== undefined) out.lastScaleTime = status.lastScaleTime;
  out.currentReplicas = status.currentReplicas ?? 0;
  out.desiredReplicas = status.desiredReplicas;
  for (const m of status.currentMetrics ?? []) {
    if (m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.current?.averageUtilization !== undefined)
      out.currentCPUUtilizationPercentage = m.resource.current.averageUtilization;
  }
  const keep = new Map<string, string>();
  for (const [k, v] of Object.entries(annotations ?? {})) {
    if (k !== MetricStatusesAnnotation && k !== HorizontalPodAutoscalerConditionsAnnotation) keep.set(k, v);
  }
  const metrics = status.currentMetrics ?? [];
  if (metrics.length) keep.set(MetricStatusesAnnotation, JSON.stringify(metrics.map(metricStatusToV1)));
  const conds = status.conditions ?? [];
  if (conds.length)
    keep.set(
      HorizontalPodAutoscalerConditionsAnnotation,
      JSON.stringify(
        conds.map((c) => ({
          type: c.type,
          status: c.status,
          ...(c.lastTransitionTime ? { lastTransitionTime: c.lastTransitionTime } : {}),
          ...(c.reason ? { reason: c.reason } : {}),
          ...(c.message ? { message: c.message } : {}),
        })),
      ),
    );
  if (keep.size === 0) return { status: out, annotations: undefined };
  const ann: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const k of [...keep.keys()].sort()) ann[k] = keep.get(k)!;
  return { status: out, annotations: { ...ann } };
}

/**
 * HorizontalController: the HPA loop, in the shape of kubernetes/kubernetes
 * pkg/controller/podautoscaler/horizontal.go (reconcileAutoscaler, computeReplicasForMetrics,
 * computeStatusFor{Resource,Pods,Object,External}Metric, normalizeDesiredReplicas[WithBehaviors],
 * setStatus, updateStatusIfNeeded) with replica_calculator.go's arithmetic
 * (podautoscaler-utils.ts).
 *
 * Every HPA is processed every 15 s (--horizontal-pod-autoscaler-sync-period), first 15 s after
 * it appears (the queue's fixed-interval rate limiter). A sync reads the target's scale
 * (spec.replicas, status.replicas, the selector) from the Deployment / ReplicaSet /
 * StatefulSet / ReplicationController, asks the resource metrics API (the simulated
 * metrics-server) for Pod usage, computes desired = ceil(current × usage / target) with the
 * 0.1 tolerance and the unready/missing-Pod adjustments, applies minReplicas/maxReplicas,
 * stabilization (scale-down window 300 s by default) and the scale rate policies, writes
 * spec.replicas when it changes (SuccessfulRescale "New size: 4; reason: cpu resource utilization
 * (percentage of request) above target") and the status (currentMetrics, currentReplicas,
 * desiredReplicas, lastScaleTime, the AbleToScale / ScalingActive / ScalingLimited conditions).
 * Pods/Object/External metrics need the custom/external metrics APIs, which this cluster does not
 * serve: FailedGetPodsMetric "unable to get metric …: unable to fetch metrics from custom metrics
 * API: no custom metrics API (custom.metrics.k8s.io) registered".
 *
 * Periodic syncs are not deadlines; the end of a scale-down stabilization window that holds the
 * replica count up is ("hpa default/x: scale-down stabilization window ends at HH:MM:SS").
 * Relay participant `horizontal-pod-autoscaler-controller`; events from `horizontal-pod-autoscaler`.
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import type { Client } from '../client/clientset';
import { users } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import { RateLimitingQueue } from '../client/workqueue';
import type { TimerHandle } from '../sim/clock';
import { deepCopy, deepEqual, metaNamespaceKey } from '../api/types';
import type {
  AnyHorizontalPodAutoscaler,
  Deployment,
  HorizontalPodAutoscaler,
  HorizontalPodAutoscalerV1,
  Pod,
  ReplicaSet,
  ReplicationController,
  StatefulSet,
} from '../api/objects';
import type {
  ContainerResourceMetricSource,
  CrossVersionObjectReference,
  MetricSpec,
  MetricStatus,
  MetricTarget,
  MetricValueStatus,
  ObjectMetricSource,
  ResourceMetricSource,
} from 'kubernetes-types/autoscaling/v2';
import { fromLabelSelector, selectorString, type Selector } from '../api/labels';
import { formatMilliCPU, quantityMilliValue } from '../api/quantity';
import type { ResourceMetricsAPI } from '../metrics/metrics-server';
import { errorMessage, recordDecision } from './controller-utils';
import * as u from './podautoscaler-utils';
import { statusFromV1, statusToV1 } from './podautoscaler-v1';
import { getOwn } from '../api/safe-object';

/** Relay participant of this controller. */
export const HPAControllerName = 'horizontal-pod-autoscaler-controller';
/** Event source.component of the HPA controller. */
export const HPAEventSource = 'horizontal-pod-autoscaler';
/** --horizontal-pod-autoscaler-sync-period default (15 s). */
export const HPASyncPeriodMs = 15_000;

const SCALE_TARGETS: Record<string, [string, string]> = {
  Deployment: ['apps', 'deployments'],
  ReplicaSet: ['apps', 'replicasets'],
  StatefulSet: ['apps', 'statefulsets'],
  ReplicationController: ['', 'replicationcontrollers'],
};

const NO_CUSTOM_METRICS = 'no custom metrics API (custom.metrics.k8s.io) registered';
const NO_EXTERNAL_METRICS = 'no external metrics API (external.metrics.k8s.io) registered';

interface Scale {
  specReplicas: number;
  statusReplicas: number;
  selector: string;
  resource: [string, string];
}

/**
 * What the controller reads of an HPA of either version: the autoscaling/v2 shape plus v1's
 * spec.targetCPUUtilizationPercentage. An autoscaling/v1 object is one (it has no metrics or
 * behavior; the controller works on its v2 status view and writes v1's status shape, podautoscaler-v1.ts).
 */
type HPA = Omit<HorizontalPodAutoscaler, 'spec'> & {
  spec: HorizontalPodAutoscaler['spec'] & Pick<HorizontalPodAutoscalerV1['spec'], 'targetCPUUtilizationPercentage'>;
};

/** The HPA's spec as the controller reads it (see {@link HPA}). */
type HPASpec = HPA['spec'];

/** status.currentMetrics as written: one entry per metric spec, null when there are none yet. */
type MetricStatuses = MetricStatus[] | null;

/**
 * What `get` of a target's scale subresource returns in this engine: the target object itself
 * (not an autoscaling/v1 Scale; the HTTP API and kubectl convert with apiserver/scale.ts scaleOf).
 */
type ScaleTarget = Deployment | ReplicaSet | StatefulSet | ReplicationController;

type MetricResult = { replicas: number; name: string; status: MetricStatus } | { error: string; reason: string };

/**
 * The target's selector as a LabelSelector, JSON ('' for none): what its Scale's status.selector
 * says. A ReplicationController's spec.selector is a plain label map (the scale subresource
 * serves labels.SelectorFromSet of it), an empty map selects nothing; the other kinds carry a
 * LabelSelector.
 */
function scaleSelector(obj: ScaleTarget, kind: string): string {
  if (kind === 'ReplicationController') {
    const m = (obj as ReplicationController).spec?.selector;
    return m && Object.keys(m).length > 0 ? JSON.stringify({ matchLabels: m }) : '';
  }
  const sel = (obj as Exclude<ScaleTarget, ReplicationController>).spec?.selector;
  return sel ? JSON.stringify(sel) : '';
}

/** Per-HPA memory of the controller (recommendations, scale events, the pending timers). */
interface HPAState {
  recommendations: u.Recommendation[];
  scaleUpEvents: u.ScaleEvent[];
  scaleDownEvents: u.ScaleEvent[];
  lastSyncAt: number;
  deadline?: TimerHandle;
}

export class HorizontalController {
  readonly name = HPAControllerName;
  readonly queue: RateLimitingQueue;
  readonly hpaInformer: SharedInformer<AnyHorizontalPodAutoscaler>;
  readonly podInformer: SharedInformer<Pod>;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly state = new Map<string, HPAState>();
  private readonly pendingSync = new Map<string, { at: number; handle: TimerHandle }>();

  /** @param metrics the resource metrics API (metrics.k8s.io); undefined when no metrics-server runs. */
  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
    private readonly metrics?: ResourceMetricsAPI,
  ) {
    this.client = ctx.client(users.controller(HPAControllerName));
    this.recorder = ctx.recorder(this.client, HPAEventSource);
    this.hpaInformer = informers.informerFor<AnyHorizontalPodAutoscaler>('autoscaling', 'horizontalpodautoscalers');
    this.podInformer = informers.informerFor<Pod>('', 'pods');
    this.queue = new RateLimitingQueue('horizontalpodautoscaler', ctx.clock, ctx.relay, (key) => this.processKey(key));
    this.hpaInformer.addEventHandler({
      participant: HPAControllerName,
      onAdd: (h) => this.enqueueHPA(metaNamespaceKey(h)),
      onUpdate: (_o, n) => this.enqueueHPA(metaNamespaceKey(n)),
      onDelete: (h) => this.deleteHPA(metaNamespaceKey(h)),
    });
  }

  /** Holds the work queue (kube-controller-manager paused). */
  pause(): void {
    this.queue.paused = true;
  }

  /** Re-queues every cached HPA for its next sync. */
  resync(): void {
    for (const h of this.hpaInformer.list()) this.enqueueHPA(metaNamespaceKey(h));
  }

  /** Releases the work queue. */
  resume(): void {
    this.queue.resume();
  }

  /** enqueueHPA: AddRateLimited with the fixed 15 s limiter — an earlier pending add wins. */
  private enqueueHPA(key: string): void {
    const at = this.ctx.clock.now() + HPASyncPeriodMs;
    const cur = this.pendingSync.get(key);
    if (cur && cur.at <= at) return;
    if (cur) this.ctx.clock.cancel(cur.handle);
    const handle = this.ctx.clock.setTimer(
      HPASyncPeriodMs,
      () => {
        this.pendingSync.delete(key);
        this.queue.add(key, null);
      },
      { label: `hpa ${key}: sync` },
    );
    this.pendingSync.set(key, { at, handle });
  }

  private deleteHPA(key: string): void {
    const st = this.state.get(key);
    this.ctx.clock.cancel(st?.deadline);
    this.ctx.clock.cancel(this.pendingSync.get(key)?.handle);
    this.pendingSync.delete(key);
    this.state.delete(key);
  }

  /** processNextWorkItem: reconcile, then re-queue after the sync period unless deleted. */
  private processKey(key: string): void {
    const hpa = this.hpaInformer.get(key);
    if (!hpa) return this.deleteHPA(key);
    try {
      this.reconcileAutoscaler(hpa, key);
    } finally {
      this.enqueueHPA(key);
    }
  }

  private stateOf(key: string): HPAState {
    let s = this.state.get(key);
    if (!s) this.state.set(key, (s = { recommendations: [], scaleUpEvents: [], scaleDownEvents: [], lastSyncAt: 0 }));
    return s;
  }

  /** reconcileAutoscaler (see the file comment). Errors are reported as events and conditions. */
  reconcileAutoscaler(shared: AnyHorizontalPodAutoscaler, key: string): void {
    const now = this.ctx.clock.now();
    const nowStr = this.ctx.clock.nowRFC3339();
    const hpa: HPA = deepCopy(shared);
    const v1 = hpa.apiVersion === 'autoscaling/v1';
    // a stored v1 object: work on its v2 view (status from the round-trip annotations, podautoscaler-v1.ts)
    if (shared.apiVersion === 'autoscaling/v1') hpa.status = statusFromV1(shared as HorizontalPodAutoscalerV1);
    // validation requires the spec (maxReplicas, scaleTargetRef)
    const spec = hpa.spec ?? ({} as HPASpec);
    const metricSpecs: MetricSpec[] = v1
      ? [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage ?? 80 } },
          },
        ]
      : (spec.metrics ?? []);
    const st = this.stateOf(key);
    st.lastSyncAt = now;
    // the conditions are this controller's own (status True / False / Unknown)
    let conds = deepCopy(hpa.status?.conditions ?? []) as u.HPACondition[];
    const setCond = (type: string, status: 'True' | 'False', reason: string, message: string) =>
      (conds = u.setCondition(conds, type, status, reason, message, nowStr));
    const ref: Partial<CrossVersionObjectReference> = spec.scaleTargetRef ?? {};
    const target = { resource: 'horizontalpodautoscalers', namespace: hpa.metadata.namespace, name: hpa.metadata.name };
    const writeStatus = (current: number, desired: number, metrics: MetricStatuses, lastScaleTime?: string) =>
      this.updateStatusIfNeeded(shared, { currentReplicas: current, desiredReplicas: desired, metrics, conditions: conds, lastScaleTime });

    let scale: Scale;
    try {
      scale = this.getScale(hpa.metadata.namespace ?? '', ref);
    } catch (err) {
      const msg = errorMessage(err);
      this.recorder.event(hpa, 'Warning', 'FailedGetScale', msg);
      setCond('AbleToScale', 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${msg}`);
      writeStatus(
        hpa.status?.currentReplicas ?? 0,
        hpa.status?.desiredReplicas ?? 0,
        hpa.status?.currentMetrics ?? null,
        hpa.status?.lastScaleTime,
      );
      return;
    }
    setCond('AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale");
    const current = scale.specReplicas;
    if (!st.recommendations.length) st.recommendations.push({ recommendation: current, timestamp: now });
    const minReplicas: number = spec.minReplicas ?? 1;
    const maxReplicas: number = spec.maxReplicas;
    let desired = 0;
    let reason = '';
    let rescale = true;
    let statuses: MetricStatuses = hpa.status?.currentMetrics ?? null;
    let stabilizedHold = false;
    let summary = '';
    let note = '';
    if (current === 0 && minReplicas !== 0) {
      rescale = false;
      setCond('ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero');
    } else if (current > maxReplicas) {
      reason = 'Current number of replicas above Spec.MaxReplicas';
      desired = maxReplicas;
    } else if (current < minReplicas) {
      reason = 'Current number of replicas below Spec.MinReplicas';
      desired = minReplicas;
    } else {
      const computed = this.computeReplicasForMetrics(hpa, scale, metricSpecs, now, setCond);
      statuses = computed.statuses;
      if (computed.replicas === -1) {
        writeStatus(current, hpa.status?.desiredReplicas ?? 0, statuses, hpa.status?.lastScaleTime);
        this.recorder.event(hpa, 'Warning', 'FailedComputeMetricsReplicas', computed.error ?? '');
        return;
      }
      desired = computed.replicas;
      if (desired > current) reason = `${computed.metric} above target`;
      if (desired < current) reason = 'All metrics below target';
      const pre = desired;
      desired = spec.behavior
        ? this.normalizeWithBehaviors(hpa, st, current, pre, minReplicas, now, setCond)
        : this.normalize(st, current, pre, minReplicas, maxReplicas, now, setCond);
      stabilizedHold = desired > pre && pre < current;
      rescale = desired !== current;
      summary = `${computed.metric || 'metrics'}: ${computed.observed} → recommend ${pre}, current ${current}`;
      note = computed.note;
    }
    let lastScaleTime: string | undefined = hpa.status?.lastScaleTime;
    if (rescale) {
      const seq = recordDecision(
        this.ctx.relay,
        this.name,
        target,
        `${summary ? `${summary} → ` : ''}scale ${ref.kind} ${ref.name} to ${desired} (${reason})`,
        this.ctx.relay.newReconcile(),
        `${note ? `${note} → ` : `${reason}: `}desired ${desired}`,
      );
      try {
        this.ctx.relay.withCause(seq, () => this.updateScale(hpa.metadata.namespace ?? '', ref.name as string, scale, desired, current));
      } catch (err) {
        this.recorder.event(hpa, 'Warning', 'FailedRescale', `New size: ${desired}; reason: ${reason}; error: ${errorMessage(err)}`);
        setCond(
          'AbleToScale',
          'False',
          'FailedUpdateScale',
          `the HPA controller was unable to update the target scale: ${errorMessage(err)}`,
        );
        writeStatus(current, hpa.status?.desiredReplicas ?? 0, statuses, lastScaleTime);
        return;
      }
      setCond('AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${desired}`);
      this.recorder.event(hpa, 'Normal', 'SuccessfulRescale', `New size: ${desired}; reason: ${reason}`);
      if (spec.behavior)
        (desired > current ? st.scaleUpEvents : st.scaleDownEvents).push({ replicaChange: Math.abs(desired - current), timestamp: now });
      lastScaleTime = nowStr;
    } else {
      desired = current;
    }
    this.markStabilizationDeadline(key, st, spec, desired, stabilizedHold, now);
    writeStatus(current, desired, statuses, lastScaleTime);
  }

  /** The end of the scale-down stabilization window that holds the count up: a known deadline. */
  private markStabilizationDeadline(key: string, st: HPAState, spec: HPASpec, held: number, holding: boolean, now: number): void {
    this.ctx.clock.cancel(st.deadline);
    st.deadline = undefined;
    if (!holding) return;
    const withBehavior = !!spec.behavior;
    const windowMs = withBehavior ? (spec.behavior!.scaleDown?.stabilizationWindowSeconds ?? 300) * 1000 : u.DownscaleStabilisationWindowMs;
    const holders = st.recommendations.filter((r) => r.recommendation >= held && r.timestamp < now);
    if (!holders.length) return;
    const expires = Math.max(...holders.map((r) => r.timestamp)) + windowMs;
    // the first sync at which the holder is out of the window (behaviors: ts > now − w; legacy: ts ≥ now − w)
    let at = now;
    while (withBehavior ? at < expires : at <= expires) at += HPASyncPeriodMs;
    st.deadline = this.ctx.clock.setTimer(
      at - now,
      () => {
        st.deadline = undefined;
      },
      {
        deadline: true,
        label: `hpa ${key}: scale-down stabilization window ends at ${new Date(at).toISOString().slice(11, 19)}`,
        object: `HorizontalPodAutoscaler/${key}`,
      },
    );
  }

  private normalize(
    st: HPAState,
    current: number,
    pre: number,
    min: number,
    max: number,
    now: number,
    setCond: (t: string, s: 'True' | 'False', r: string, m: string) => void,
  ): number {
    const stabilized = u.stabilizeRecommendation(st.recommendations, pre, now);
    if (stabilized !== pre)
      setCond(
        'AbleToScale',
        'True',
        'ScaleDownStabilized',
        'recent recommendations were higher than current one, applying the highest recent recommendation',
      );
    else setCond('AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size');
    const [desired, reason, message] = u.convertDesiredReplicasWithRules(current, stabilized, min, max);
    setCond('ScalingLimited', desired === stabilized ? 'False' : 'True', reason, message);
    return desired;
  }

  private normalizeWithBehaviors(
    hpa: HPA,
    st: HPAState,
    current: number,
    pre: number,
    min: number,
    now: number,
    setCond: (t: string, s: 'True' | 'False', r: string, m: string) => void,
  ): number {
    // called only with spec.behavior set; selectPolicy and policies[].type are plain strings in the API
    // types (u.ScalingRules names their values; the registry does not validate them)
    const b = hpa.spec.behavior!;
    const up = (b.scaleUp ?? {}) as u.ScalingRules;
    const down = { ...b.scaleDown, stabilizationWindowSeconds: b.scaleDown?.stabilizationWindowSeconds ?? 300 } as u.ScalingRules;
    const [stabilized, sReason, sMessage] = u.stabilizeRecommendationWithBehaviors(st.recommendations, current, pre, up, down, now);
    if (stabilized !== pre) setCond('AbleToScale', 'True', sReason, sMessage);
    else setCond('AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size');
    const longest = Math.max(0, ...[...(up.policies ?? []), ...(down.policies ?? [])].map((p) => p.periodSeconds)) * 1000;
    st.scaleUpEvents = st.scaleUpEvents.filter((e) => e.timestamp > now - longest);
    st.scaleDownEvents = st.scaleDownEvents.filter((e) => e.timestamp > now - longest);
    const [desired, reason, message] = u.convertDesiredReplicasWithBehaviorRate(
      current,
      stabilized,
      min,
      hpa.spec.maxReplicas,
      up,
      down,
      st.scaleUpEvents,
      st.scaleDownEvents,
      now,
    );
    setCond('ScalingLimited', desired === stabilized ? 'False' : 'True', reason, message);
    return desired;
  }

  /** computeReplicasForMetrics: the highest proposal of the valid metrics; -1 with an error when they all fail. */
  private computeReplicasForMetrics(
    hpa: HPA,
    scale: Scale,
    specs: MetricSpec[],
    now: number,
    setCond: (t: string, s: 'True' | 'False', r: string, m: string) => void,
  ): { replicas: number; metric: string; statuses: MetricStatus[]; error?: string; observed: string; note: string } {
    const statuses: MetricStatus[] = specs.map(() => ({ type: '' }));
    if (!scale.selector) {
      this.recorder.event(hpa, 'Warning', 'SelectorRequired', 'selector is required');
      setCond('ScalingActive', 'False', 'InvalidSelector', "the HPA target's scale is missing a selector");
      return { replicas: -1, metric: '', statuses, error: 'selector is required', observed: '', note: '' };
    }
    const selector = fromLabelSelector(JSON.parse(scale.selector));
    let replicas = 0;
    let metric = '';
    let observed = '';
    let note = '';
    let invalid = 0;
    let firstErr: { error: string; reason: string } | undefined;
    specs.forEach((m, i) => {
      const r = this.computeReplicasForMetric(hpa, m, scale.specReplicas, selector, now);
      if ('error' in r) {
        this.recorder.event(hpa, 'Warning', r.reason, r.error);
        if (!firstErr) firstErr = r;
        invalid++;
        return;
      }
      statuses[i] = r.status;
      if (replicas === 0 || r.replicas > replicas) {
        replicas = r.replicas;
        metric = r.name;
        observed = describeStatus(r.status);
        note = noteOf(m, r.status);
      }
    });
    const error = firstErr ? `invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${firstErr.error}` : undefined;
    if (firstErr && (invalid >= specs.length || replicas < scale.specReplicas)) {
      setCond('ScalingActive', 'False', firstErr.reason, `the HPA was unable to compute the replica count: ${firstErr.error}`);
      return { replicas: -1, metric: '', statuses, error, observed, note };
    }
    setCond('ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${metric}`);
    return { replicas, metric, statuses, error, observed, note };
  }

  private computeReplicasForMetric(hpa: HPA, m: MetricSpec, current: number, selector: Selector, now: number): MetricResult {
    const ns = hpa.metadata.namespace ?? '';
    switch (m.type) {
      case 'Resource':
      case 'ContainerResource': {
        const src: (ResourceMetricSource & Partial<Pick<ContainerResourceMetricSource, 'container'>>) | undefined =
          m.type === 'Resource' ? m.resource : m.containerResource;
        const reason = m.type === 'Resource' ? 'FailedGetResourceMetric' : 'FailedGetContainerResourceMetric';
        // validation requires the source of a Resource / ContainerResource metric
        const res = src?.name as string;
        const t: Partial<MetricTarget> = src?.target ?? {};
        const container: string = m.type === 'ContainerResource' ? (src?.container ?? '') : '';
        const key = m.type === 'Resource' ? 'resource' : 'containerResource';
        const base = { name: res, ...(container ? { container } : {}) };
        const pods = this.podInformer.list(ns, selector);
        let metrics: u.PodMetricsInfo;
        try {
          metrics = this.resourceMetrics(ns, selector, res, container);
        } catch (err) {
          const what = t.averageValue !== undefined ? 'usage' : 'utilization';
          return { reason, error: `failed to get ${res} ${what}: unable to get metrics for resource ${res}: ${errorMessage(err)}` };
        }
        if (t.averageValue !== undefined) {
          try {
            const [replicas, usage] = u.calcPlainMetricReplicas(current, quantityMilliValue(t.averageValue), res, pods, metrics, now);
            return {
              replicas,
              name: `${res} resource`,
              status: { type: m.type, [key]: { ...base, current: { averageValue: formatMilli(usage) } } } as MetricStatus,
            };
          } catch (err) {
            return { reason, error: `failed to get ${res} usage: ${errorMessage(err)}` };
          }
        }
        if (t.averageUtilization === undefined)
          return {
            reason,
            error: 'invalid resource metric source: neither an average utilization target nor an average value (usage) target was set',
          };
        try {
          const [replicas, utilization, raw] = u.calcResourceReplicas(current, t.averageUtilization, res, pods, metrics, now, container);
          const name =
            m.type === 'Resource'
              ? `${res} resource utilization (percentage of request)`
              : `${res} container resource utilization (percentage of request)`;
          return {
            replicas,
            name,
            status: {
              type: m.type,
              [key]: { ...base, current: { averageValue: formatMilli(raw), averageUtilization: utilization } },
            } as MetricStatus,
          };
        } catch (err) {
          return { reason, error: `failed to get ${res} utilization: ${errorMessage(err)}` };
        }
      }
      case 'Pods':
        return {
          reason: 'FailedGetPodsMetric',
          error: `unable to get metric ${m.pods?.metric?.name}: unable to fetch metrics from custom metrics API: ${NO_CUSTOM_METRICS}`,
        };
      case 'Object': {
        const o: Partial<ObjectMetricSource> = m.object ?? {};
        return {
          reason: 'FailedGetObjectMetric',
          error: `unable to get metric ${o.metric?.name}: ${o.describedObject?.kind} on ${ns} ${o.describedObject?.name}/unable to fetch metrics from custom metrics API: ${NO_CUSTOM_METRICS}`,
        };
      }
      case 'External':
        return {
          reason: 'FailedGetExternalMetric',
          error: `unable to get external metric ${ns}/${m.external?.metric?.name}/${selectorString(fromLabelSelector(m.external?.metric?.selector))}: unable to fetch metrics from external metrics API: ${NO_EXTERNAL_METRICS}`,
        };
      default:
        return { reason: 'InvalidMetricSourceType', error: `unknown metric source type "${m.type}"` };
    }
  }

  /** resourceMetricsClient.GetResourceMetric through the metrics API. */
  private resourceMetrics(ns: string, selector: Selector, resource: string, container: string): u.PodMetricsInfo {
    if (!this.metrics)
      throw new Error(
        'unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)',
      );
    const items = this.metrics.podUsage(ns, selector);
    if (!items.length) throw new Error('no metrics returned from resource metrics API');
    const out: u.PodMetricsInfo = new Map();
    for (const p of items) {
      const cs = container ? p.containers.filter((c) => c.name === container) : p.containers;
      if (!cs.length) continue;
      const value = cs.reduce((s, c) => s + (resource === 'cpu' ? c.cpuMillicores : resource === 'memory' ? c.memoryBytes * 1000 : NaN), 0);
      if (Number.isNaN(value)) continue;
      out.set(p.name, { value, timestamp: p.timestamp, windowMs: p.windowMs });
    }
    return out;
  }

  /** The scale subresource of the target (autoscaling/v1 Scale: spec.replicas, status.replicas, status.selector). */
  private getScale(ns: string, ref: Partial<CrossVersionObjectReference>): Scale {
    const r = getOwn(SCALE_TARGETS, ref.kind as string);
    if (!r)
      throw new Error(
        `no matches for kind "${ref.kind}" in group "${String(ref.apiVersion ?? '')
          .split('/')
          .slice(0, -1)
          .join('/')}"`,
      );
    const obj = this.client.resource<ScaleTarget>(r[0], r[1]).get(ns, ref.name as string, { quiet: true, subresource: 'scale' });
    return {
      specReplicas: obj.spec?.replicas ?? 1,
      statusReplicas: obj.status?.replicas ?? 0,
      selector: scaleSelector(obj, ref.kind as string),
      resource: r,
    };
  }

  /** Scales().Update: writes spec.replicas of the target. */
  private updateScale(ns: string, name: string, scale: Scale, desired: number, current: number): void {
    const rc = this.client.resource<ScaleTarget>(scale.resource[0], scale.resource[1]);
    const obj = deepCopy(rc.get(ns, name, { quiet: true, subresource: 'scale' }));
    obj.spec = { ...obj.spec, replicas: desired };
    rc.update(obj, {
      viaSubresource: 'scale',
      summary: `update ${scale.resource[1]}/scale ${ns}/${name}: replicas ${current} → ${desired}`,
    });
  }

  /** setStatus + updateStatusIfNeeded: one status write, only when something changed. */
  private updateStatusIfNeeded(
    shared: AnyHorizontalPodAutoscaler,
    s: { currentReplicas: number; desiredReplicas: number; metrics: MetricStatuses; conditions: u.HPACondition[]; lastScaleTime?: string },
  ): void {
    // desiredReplicas (required) is set below
    const status = {} as NonNullable<HorizontalPodAutoscaler['status']>;
    if (s.conditions.length) status.conditions = s.conditions;
    status.currentMetrics = s.metrics;
    if (s.currentReplicas) status.currentReplicas = s.currentReplicas;
    status.desiredReplicas = s.desiredReplicas;
    if (s.lastScaleTime) status.lastScaleTime = s.lastScaleTime;
    const fresh = this.hpaInformer.get(metaNamespaceKey(shared)) ?? shared;
    let next: AnyHorizontalPodAutoscaler;
    if (shared.apiVersion === 'autoscaling/v1') {
      // what a v1 read shows: v1's status fields, currentMetrics and conditions in annotations
      const v1 = statusToV1(status, shared.metadata.annotations);
      if (deepEqual(v1.status, shared.status ?? {}) && deepEqual(v1.annotations ?? {}, shared.metadata.annotations ?? {})) return;
      const metadata = { ...fresh.metadata };
      if (v1.annotations) metadata.annotations = v1.annotations;
      else delete metadata.annotations;
      next = { ...(fresh as HorizontalPodAutoscalerV1), metadata, status: v1.status };
    } else {
      if (deepEqual(status, shared.status ?? {})) return;
      next = { ...(fresh as HorizontalPodAutoscaler), status };
    }
    this.client.resource<AnyHorizontalPodAutoscaler>('autoscaling', 'horizontalpodautoscalers').updateStatus(next, {
      summary: `update status HorizontalPodAutoscaler ${metaNamespaceKey(shared)}: current ${s.currentReplicas}, desired ${s.desiredReplicas}${(s.metrics ?? []).length ? `, ${(s.metrics ?? []).map(describeStatus).join(', ')}` : ''}`,
    });
  }
}

/** Quantity of a milli value as resource.NewMilliQuantity(v, DecimalSI).String() prints it. */
function formatMilli(v: number): string {
  return formatMilliCPU(v);
}

/**
 * The HPA's reconcile note for the winning metric: "current 250% / target 50%" (Utilization),
 * "current 300m / target 200m" (AverageValue); empty for other metric types.
 */
function noteOf(m: MetricSpec, s: MetricStatus): string {
  const src = m.type === 'Resource' ? m.resource : m.type === 'ContainerResource' ? m.containerResource : undefined;
  const c: MetricValueStatus = (s.resource ?? s.containerResource)?.current ?? {};
  const t: Partial<MetricTarget> = src?.target ?? {};
  if (t.averageUtilization !== undefined && c.averageUtilization !== undefined)
    return `current ${c.averageUtilization}% / target ${t.averageUtilization}%`;
  if (t.averageValue !== undefined && c.averageValue !== undefined) return `current ${c.averageValue} / target ${t.averageValue}`;
  return '';
}

function describeStatus(s: MetricStatus): string {
  const r = s.resource ?? s.containerResource;
  if (!r) return '<unknown>';
  const c = r.current ?? {};
  return c.averageUtilization !== undefined ? `${r.name} ${c.averageUtilization}%` : `${r.name} ${c.averageValue}`;
}

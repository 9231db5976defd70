/**
 * Timings of the simulated cluster, in simulated milliseconds. The default profile is
 * Kubernetes v1.33's own defaults (kube-controller-manager, kubelet, kube-scheduler flags);
 * a "teaching" profile may shorten them and the UI must then say so.
 */
export interface Timings {
  /** Profile name shown in the UI ("kubernetes-defaults" or "teaching"). */
  profile: string;
  /** apiserver → watcher delivery latency. */
  watchLatencyMs: number;
  /** kube-controller-manager --node-monitor-period (5 s). */
  nodeMonitorPeriodMs: number;
  /** kube-controller-manager --node-monitor-grace-period (50 s since v1.32). */
  nodeMonitorGracePeriodMs: number;
  /** kube-controller-manager --node-startup-grace-period (60 s). */
  nodeStartupGracePeriodMs: number;
  /** kubelet nodeLeaseDurationSeconds (40 s); the Lease is renewed every 25% of it (10 s). */
  nodeLeaseDurationMs: number;
  /** kubelet nodeStatusUpdateFrequency (10 s). */
  nodeStatusUpdateFrequencyMs: number;
  /** kubelet nodeStatusReportFrequency (5 min): full status posted even without change. */
  nodeStatusReportFrequencyMs: number;
  /** DefaultTolerationSeconds admission: not-ready / unreachable tolerations (300 s). */
  defaultTolerationSeconds: number;
  /** kubelet sync of a newly bound pod: time from watch to starting work. */
  kubeletSyncDelayMs: number;
  /** Image pull: fixed overhead plus per-MiB time (≈ 50 MiB/s). */
  imagePullBaseMs: number;
  imagePullMsPerMiB: number;
  /** Sandbox (pause container + CNI) creation. */
  sandboxCreateMs: number;
  /** Container create + start. */
  containerStartMs: number;
  /** kubelet back-off for image pulls and crashing containers: 10 s doubling to 300 s. */
  backOffInitialMs: number;
  backOffMaxMs: number;
  /** Scheduler: time to run one scheduling cycle (tiny). */
  schedulingCycleMs: number;
}

/** Kubernetes v1.33 defaults. */
export const KUBERNETES_DEFAULTS: Timings = {
  profile: 'kubernetes-defaults',
  watchLatencyMs: 1,
  nodeMonitorPeriodMs: 5_000,
  nodeMonitorGracePeriodMs: 50_000,
  nodeStartupGracePeriodMs: 60_000,
  nodeLeaseDurationMs: 40_000,
  nodeStatusUpdateFrequencyMs: 10_000,
  nodeStatusReportFrequencyMs: 300_000,
  defaultTolerationSeconds: 300,
  kubeletSyncDelayMs: 10,
  imagePullBaseMs: 500,
  imagePullMsPerMiB: 20,
  sandboxCreateMs: 400,
  containerStartMs: 300,
  backOffInitialMs: 10_000,
  backOffMaxMs: 300_000,
  schedulingCycleMs: 1,
};

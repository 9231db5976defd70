/**
 * The per-workload load control (issue 5 §7): what the UI's load slider and the scenario step
 * `setLoad` set. Each setting is handed to the simulated metrics-server
 * (metrics/metrics-server.ts `setLoad`, total CPU spread over the Ready Pods, effective from the
 * next 15 s scrape) and remembered here so the UI can list them.
 */
import type { MetricsServer } from '../metrics/metrics-server';
import type { WorkloadLoad } from '../userland/traffic-types';

/** Remembers the loads set, newest value per (namespace, workload). */
export class LoadControl {
  private readonly entries = new Map<string, WorkloadLoad>();

  constructor(private readonly metrics: MetricsServer) {}

  /**
   * Sets the total CPU (millicores) the workload's Pods use together. `workload` is
   * "deployment/web", "statefulset/db", "replicaset/x" or a label selector "app=web".
   * Throws on a negative or non-finite amount or an empty workload.
   */
  set(load: WorkloadLoad): void {
    const workload = load.workload.trim();
    const ns = load.namespace.trim() || 'default';
    if (!workload) throw new Error('setLoad: workload is required');
    if (!Number.isFinite(load.totalCpuMillicores) || load.totalCpuMillicores < 0)
      throw new Error(`setLoad: invalid CPU ${load.totalCpuMillicores}`);
    const total = Math.round(load.totalCpuMillicores);
    this.metrics.setLoad(ns, workload, { totalCpuMillicores: total });
    this.entries.set(`${ns}/${workload}`, { namespace: ns, workload, totalCpuMillicores: total });
  }

  /** The loads set so far, sorted by namespace then workload. */
  list(): WorkloadLoad[] {
    return [...this.entries.values()]
      .sort((a, b) => (a.namespace + '\u0000' + a.workload < b.namespace + '\u0000' + b.workload ? -1 : 1))
      .map((l) => ({ ...l }));
  }
}

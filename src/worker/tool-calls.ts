/**
 * The tool calls of ClusterHost (cluster-api.ts): the kubectl bar (its lines, a running
 * `kubectl get -w`, the cut of a long stdout), the editor's apply, `apply -k`, dry run, diff and
 * markers, `docker …` lines, the network tools (nslookup, requests, load) and the read-only
 * views (scheduling decisions, kube-proxy rules, what a Pod's containers serve). A call that
 * changes the cluster is a scenario step, recorded and played through the host (`perform`:
 * cluster/scenario/play.ts `playStep`); the others only read.
 */
import type { ApplyResult } from '../cluster/kubectl/apply';
import type { KubectlResult } from '../cluster/kubectl/command';
import type { GetWatchSession } from '../cluster/kubectl/cmd/get-watch';
import type { SchedulingDecision } from '../cluster/scheduler/decision';
import { toYAML } from '../cluster/kubectl/cmd/output';
import type { Cluster } from '../cluster/cluster';
import type { PlayContext, Played, StepKind, StepOf } from '../cluster/scenario/play';
import type { StandaloneContainer } from '../cluster/docker/standalone';
import type { DnsLookupResult, TrafficRequest, TrafficResult, WorkloadLoad } from '../cluster/userland/traffic-types';
import { markersFor, type EditorMarker } from './markers';
import { kubectlDiff, type DiffOutput } from './diff';
import { sandboxed } from './sandbox';
import { kustomizeBuild } from './kustomize';
import type { ActingAs } from './session';
import type { PodContainerServes } from './protocol';
import type { ClusterLike } from './host-types';

/** The kubectl bar shows at most this many lines of a command's stdout (the rest is cut, with a note on stderr). */
export const KUBECTL_BAR_MAX_LINES = 2_000;

/**
 * The kubectl bar's page holds at most {@link KUBECTL_BAR_MAX_LINES} lines of stdout: beyond
 * them the output is cut at a line end and stderr says how much was left out and how to
 * narrow the listing (a `kubectl get pods` of 200,000 Pods would put 200,001 lines in the page).
 */
export function capOutput<T extends KubectlResult>(r: T, max = KUBECTL_BAR_MAX_LINES): T {
  let at = -1;
  for (let i = 0; i < max; i++) {
    at = r.output.indexOf('\n', at + 1);
    if (at < 0) return r;
  }
  if (at === r.output.length - 1) return r;
  let total = max;
  for (let i = at + 1; i < r.output.length; i++) if (r.output.charCodeAt(i) === 10) total++;
  if (!r.output.endsWith('\n')) total++;
  const note = `kube-relay: the kubectl bar shows the first ${max.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} lines; narrow the listing with -l, --field-selector, -n or a name\n`;
  return { ...r, output: r.output.slice(0, at + 1), error: (r.error ?? '') + note };
}

/** What the tool calls need of ClusterHost. */
export interface ToolHost {
  /** The current cluster (a reset replaces it). */
  readonly cluster: ClusterLike;
  engine(): Cluster;
  /** What the steps played on this cluster share: who they act as. */
  readonly ctx: PlayContext;
  /** The `as` option of an engine call: who the learner acts as, or nothing. */
  asOpts(): { as?: ActingAs };
  /** Records a user action's step and plays it; `throws`: a failure reaches the caller. */
  perform<K extends StepKind>(step: StepOf<K>, opts?: { throws?: boolean }): Played<K>;
  /** Pushes a batch when anything changed. */
  flush(): void;
  /** Marks the UI state changed and pushes a batch. */
  changed(): void;
}

/** The tool calls (see the file comment); ClusterHost delegates its ClusterApi methods of that kind here. */
export class ToolCalls {
  /** The running `kubectl get -w` of the kubectl bar (kubectl/cmd/get-watch.ts), if any. */
  private watch: { id: number; session: GetWatchSession } | null = null;
  private watchSeq = 0;

  constructor(private readonly host: ToolHost) {}

  /** Ends the running `kubectl get -w` (a reset). */
  stopWatch(): void {
    this.watch?.session.stop();
    this.watch = null;
  }

  apply(text: string): ApplyResult[] {
    const results = this.host.perform({ kind: 'apply', manifest: text }, { throws: true }).value!;
    this.host.flush();
    return results;
  }

  kubectl(line: string): KubectlResult & { watchId?: number } {
    // a new command line ends the running `get -w` (^C)
    this.watch?.session.stop();
    this.watch = null;
    if (/^\s*docker(\s|$)/.test(line)) return this.docker(line);
    let result: KubectlResult & { watchId?: number };
    this.host.ctx.onWatch = (session) => {
      this.watch = { id: ++this.watchSeq, session };
    };
    try {
      result = this.host.perform({ kind: 'kubectl', command: line }, { throws: true }).value!;
      const opened = this.watch as { id: number } | null; // set by the callback above
      if (opened) result = { ...result, watchId: opened.id };
    } catch (e) {
      // an engine bug must not take the worker down: say it the way kubectl reports errors
      result = { output: '', error: `error: ${e instanceof Error ? e.message : String(e)}\n`, exitCode: 1 };
    } finally {
      this.host.ctx.onWatch = undefined;
    }
    this.host.changed();
    return capOutput(result);
  }

  kubectlWatchPoll(id: number): { output: string; open: boolean } {
    const w = this.watch;
    if (!w || w.id !== id || w.session.stopped) return { output: '', open: false };
    return { output: w.session.drain(), open: true };
  }

  kubectlWatchStop(id: number): void {
    if (this.watch?.id !== id) return;
    this.watch.session.stop();
    this.watch = null;
  }

  schedulingDecision(namespace: string, name: string): SchedulingDecision | null {
    return this.host.cluster.scheduler.decisionFor(namespace, name) ?? null;
  }

  printYAML(values: unknown[]): string[] {
    return values.map((v) => toYAML(v));
  }

  proxyRules(node: string): string | null {
    return this.host.cluster.kubeProxies.get(node)?.rules() ?? null;
  }

  podServes(namespace: string, name: string): PodContainerServes[] {
    const pod = this.host.cluster.objects().find((o) => o.kind === 'Pod' && o.metadata.namespace === namespace && o.metadata.name === name);
    const kubelet = pod?.spec?.nodeName ? this.host.cluster.kubelets?.get(pod.spec.nodeName) : undefined;
    if (!pod || !kubelet) return [];
    const specs: { name: string; image?: string }[] = [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])];
    const images = new Map<string, string>(specs.map((c) => [c.name, c.image ?? '']));
    return kubelet
      .containerInfo(namespace, name)
      .flatMap((c) => (c.serves ? [{ name: c.name, image: images.get(c.name) ?? '', kind: c.serves.kind, ports: c.serves.ports }] : []));
  }

  /** `nslookup NAME` from a Pod of `fromNamespace`: changes no object, but is logged so that a replay has the same relay (its DNS hops). */
  dnsLookup(name: string, fromNamespace: string): DnsLookupResult {
    const r = this.host.perform({ kind: 'dnsLookup', name, namespace: fromNamespace }, { throws: true }).value!;
    this.host.changed();
    return r;
  }

  /** Sends a batch of requests (traffic/traffic.ts); recorded, since routing draws from the seeded RNG. */
  sendRequests(request: TrafficRequest): TrafficResult[] {
    const s = request.source;
    const from = s.kind === 'pod' ? { kind: 'pod' as const, namespace: s.namespace, name: s.name } : { kind: 'external' as const };
    const r = this.host.perform({ kind: 'request', from, url: request.url, count: request.count }, { throws: true }).value!;
    this.host.changed();
    return r;
  }

  /** Sets a workload's total CPU load (traffic/load.ts → metrics-server); recorded. */
  setLoad(load: WorkloadLoad): void {
    this.host.perform(
      { kind: 'setLoad', namespace: load.namespace, workload: load.workload, cpuMillicores: load.totalCpuMillicores },
      { throws: true },
    );
    this.host.changed();
  }

  loads(): WorkloadLoad[] {
    return this.host.cluster.loads.list();
  }

  /** A `docker …` line (cluster/docker/cli.ts) against a machine's engine; recorded in the session log. */
  docker(line: string): KubectlResult {
    const r = this.host.perform({ kind: 'docker', line }, { throws: true }).value!;
    this.host.changed();
    return r;
  }

  standaloneContainers(): StandaloneContainer[] {
    return this.host.engine().docker.list();
  }

  /** `kubectl apply -k DIR` of the editor's tabs (worker/kustomize.ts); recorded in the session log. */
  applyKustomize(files: Record<string, string>, dir: string): ApplyResult[] {
    const results = this.host.perform({ kind: 'applyKustomize', path: dir, files: { ...files } }, { throws: true }).value!;
    this.host.flush();
    return results;
  }

  /** `kubectl kustomize DIR` of the editor's tabs (changes nothing). */
  kustomizeBuild(files: Record<string, string>, dir: string): { stdout: string; stderr: string; code: number } {
    return kustomizeBuild(files, dir);
  }

  /** Server-side dry run of the editor's text (changes nothing), with editor markers. */
  dryRun(text: string): { results: ApplyResult[]; markers: EditorMarker[] } {
    const results = sandboxed(this.host.engine(), () => this.host.cluster.apply(text, { dryRun: 'server', ...this.host.asOpts() }));
    return { results, markers: markersFor(text, results) };
  }

  /** Editor markers for the results of an apply of `text` (the UI does not parse YAML). */
  markers(text: string, results: ApplyResult[]): EditorMarker[] {
    return markersFor(text, results);
  }

  /** `kubectl diff -f -` of `text` against the cluster (changes nothing). */
  diff(text: string): DiffOutput {
    return kubectlDiff(this.host.engine(), text);
  }
}

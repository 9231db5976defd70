/**
 * Container probes, as pkg/kubelet/prober: prober_manager.go (a worker per container and
 * probe type, UpdatePodStatus deriving `started` and `ready`), worker.go (the probe loop:
 * initial jitter when the kubelet started less than a period ago, a tick every periodSeconds,
 * initialDelaySeconds counted from the container's startedAt in whole seconds, success /
 * failure thresholds, liveness/startup "on hold" after a failure until a new container) and
 * prober.go (handlers and events). Upstream texts:
 *   Warning Unhealthy "Liveness probe failed: cat: can't open '/tmp/health': No such file or directory\n"
 *   Warning Unhealthy "Readiness probe failed: Get \"http://10.244.1.5:8081/\": dial tcp 10.244.1.5:8081: connect: connection refused"
 *   Warning Unhealthy "Liveness probe failed: dial tcp 10.244.1.5:8081: connect: connection refused"   (tcpSocket)
 *   Warning Unhealthy "Readiness probe failed: timeout: failed to connect service \"10.244.1.5:9555\" within 1s: context deadline exceeded"   (grpc)
 *   Warning Unhealthy "Readiness probe errored and resulted in unknown state: strconv.Atoi: parsing \"http\": invalid syntax"
 * What a probe reaches is the simulated container: exec runs through the shell against the
 * container's files; tcpSocket/grpc succeed when a running container of the Pod serves
 * the port (see {@link ProbeHooks.serves}); httpGet gets the status code that container's server
 * answers for the path (userland/images/web-servers.ts: nginx 404s paths it has no file for):
 *   Warning Unhealthy "Readiness probe failed: HTTP probe failed with statuscode: 404"   (pkg/probe/http/http.go)
 * Probe ticks are periodic work, but a tick that the
 * engine knows will change a result (first probe of a container, a streak below its
 * threshold) is a deadline for `settle`. Times: seconds in the API, simulated ms here.
 */
import type { Container } from 'kubernetes-types/core/v1';
import type { EventRecorder } from '../client/record';
import type { ComponentContext } from '../component-context';
import type { ExecResult } from '../userland/container-process';
import { containerRef } from './image-manager';
import type { ContainerRecord, PodRecord } from './status-manager';
import type { OwnedTimers } from './timers';
import type { TimerHandle } from '../sim/clock';

export type ProbeType = 'liveness' | 'readiness' | 'startup';
type Result = 'Success' | 'Failure';

const TYPE_NAME: Record<ProbeType, string> = { liveness: 'Liveness', readiness: 'Readiness', startup: 'Startup' };
const INITIAL: Record<ProbeType, Result | undefined> = { liveness: 'Success', readiness: 'Failure', startup: undefined };

/** A Probe as defaulted by the apiserver (pod-defaults.ts SetDefaults_Probe). */
export interface ProbeSpec {
  exec?: { command?: string[] };
  httpGet?: { path?: string; port: number | string; host?: string; scheme?: string };
  tcpSocket?: { port: number | string; host?: string };
  grpc?: { port: number; service?: string };
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

/** What the prober needs from the pod workers. */
export interface ProbeHooks {
  /** ExecSync in the container. */
  exec(rec: PodRecord, c: ContainerRecord, argv: string[], timeoutMs: number): ExecResult;
  /** True when a running container of the Pod serves `port`. */
  serves(rec: PodRecord, port: number): boolean;
  /** GET `path` on `port` of the Pod: null when nothing listens (connection refused), else the status code. */
  httpGet?(rec: PodRecord, port: number, path: string): { status: number } | null;
  /** A result changed (after thresholds): readiness → status; liveness/startup failure → kill. */
  onResult(rec: PodRecord, c: ContainerRecord, type: ProbeType, result: Result): void;
}

interface Worker {
  rec: PodRecord;
  name: string;
  type: ProbeType;
  spec: ProbeSpec;
  timer?: TimerHandle;
  containerID?: string;
  result?: Result;
  lastResult?: Result;
  resultRun: number;
  onHold: boolean;
  probedThisContainer: boolean;
  stopped: boolean;
  triggered?: boolean;
}

/** extractPort (prober.go): a number, a containerPort name, or a number in a string. */
export function extractPort(port: number | string, c: { ports?: { name?: string; containerPort: number }[] }): number | string {
  if (typeof port === 'number') return port;
  const named = c.ports?.find((p) => p.name === port);
  if (named) return named.containerPort;
  if (/^-?\d+$/.test(port)) return Number(port);
  return `strconv.Atoi: parsing "${port}": invalid syntax`;
}

export class ProbeManager {
  private workers = new Map<string, Worker>();

  constructor(
    private readonly ctx: ComponentContext,
    private readonly recorder: EventRecorder,
    private readonly timers: OwnedTimers,
    private readonly hooks: ProbeHooks,
    /** simulated ms when this kubelet (its probe manager) started */
    private kubeletStart: number,
  ) {}

  private key(uid: string, name: string, type: ProbeType): string {
    return `${uid}/${name}/${type}`;
  }

  /** The kubelet restarted (power on). */
  restart(now: number): void {
    for (const w of this.workers.values()) this.stop(w);
    this.workers.clear();
    this.kubeletStart = now;
  }

  /** AddPod: a worker per probe of each container (and of each restartable init container). */
  addPod(rec: PodRecord): void {
    const specs = [
      ...(rec.pod.spec?.initContainers ?? []).filter((c: { restartPolicy?: string }) => c.restartPolicy === 'Always'),
      ...(rec.pod.spec?.containers ?? []),
    ];
    for (const c of specs) {
      for (const type of ['startup', 'readiness', 'liveness'] as ProbeType[]) {
        const spec: ProbeSpec | undefined = c[`${type}Probe`];
        if (!spec) continue;
        const k = this.key(rec.uid, c.name, type);
        if (this.workers.has(k)) continue;
        const w: Worker = { rec, name: c.name, type, spec, resultRun: 0, onHold: false, probedThisContainer: false, stopped: false };
        this.workers.set(k, w);
        const periodMs = (spec.periodSeconds ?? 10) * 1000;
        const now = this.ctx.clock.now();
        const jitter = periodMs > now - this.kubeletStart ? Math.floor(this.ctx.rng.float() * periodMs) : 0;
        this.schedule(w, jitter);
      }
    }
  }

  private schedule(w: Worker, delayMs: number): void {
    // A tick is a known deadline when its result may change what the API shows: readiness and
    // startup results flip Ready/started (the first probe always may); a liveness probe only
    // matters while a failure streak is running toward failureThreshold (a restart).
    const pending =
      w.type === 'liveness' ? w.result === 'Failure' : !w.probedThisContainer || (w.lastResult !== undefined && w.lastResult !== w.result);
    w.timer = this.timers.set(
      delayMs,
      () => {
        w.timer = undefined;
        if (w.stopped) return;
        if (!this.doProbe(w)) return this.stop(w);
        this.schedule(w, (w.spec.periodSeconds ?? 10) * 1000);
      },
      pending
        ? {
            deadline: true,
            label: `${TYPE_NAME[w.type]} probe of ${w.rec.namespace}/${w.rec.name}/${w.name}`,
            object: `Pod/${w.rec.namespace}/${w.rec.name}`,
          }
        : { label: `${TYPE_NAME[w.type]} probe of ${w.rec.namespace}/${w.rec.name}/${w.name}` },
    );
  }

  private stop(w: Worker): void {
    w.stopped = true;
    this.timers.cancel(w.timer);
    w.timer = undefined;
    const k = this.key(w.rec.uid, w.name, w.type);
    if (this.workers.get(k) === w) this.workers.delete(k);
  }

  /** StopLivenessAndStartup (the Pod is terminating). */
  stopLivenessAndStartup(rec: PodRecord): void {
    for (const w of [...this.workers.values()]) if (w.rec.uid === rec.uid && w.type !== 'readiness') this.stop(w);
  }

  /** RemovePod. */
  removePod(uid: string): void {
    for (const w of [...this.workers.values()]) if (w.rec.uid === uid) this.stop(w);
  }

  private worker(rec: PodRecord, name: string, type: ProbeType): Worker | undefined {
    return this.workers.get(this.key(rec.uid, name, type));
  }

  private resultFor(w: Worker | undefined, c: ContainerRecord): Result | undefined {
    return w && w.containerID === c.containerID ? w.result : undefined;
  }

  /** UpdatePodStatus: `started` of a running container. */
  started(rec: PodRecord, c: ContainerRecord): boolean {
    if (c.current.kind !== 'running') return false;
    const w = this.worker(rec, c.name, 'startup');
    if (!w) return true;
    return this.resultFor(w, c) === 'Success';
  }

  /** UpdatePodStatus: `ready` of a running container (triggers a readiness probe when unknown). */
  ready(rec: PodRecord, c: ContainerRecord): boolean {
    if (!this.started(rec, c)) return false;
    const w = this.worker(rec, c.name, 'readiness');
    if (!w) return true;
    if (this.resultFor(w, c) === 'Success') return true;
    if (w.containerID !== c.containerID && !w.stopped && !w.triggered) {
      // manualTriggerCh: run the readiness probe now (the ticker keeps its phase)
      w.triggered = true;
      this.timers.set(
        0,
        () => {
          w.triggered = false;
          if (!w.stopped && !this.doProbe(w)) this.stop(w);
        },
        {
          deadline: true,
          label: `Readiness probe of ${rec.namespace}/${rec.name}/${c.name} (manual run)`,
          object: `Pod/${rec.namespace}/${rec.name}`,
        },
      );
    }
    return false;
  }

  /** worker.doProbe: false when the worker should stop. */
  private doProbe(w: Worker): boolean {
    const rec = w.rec;
    if (rec.deleted || rec.done) return false;
    const c = [...(rec.initContainers ?? []), ...rec.containers].find((x) => x.name === w.name);
    if (!c || !c.containerID) return true;
    if (w.containerID !== c.containerID) {
      w.containerID = c.containerID;
      w.result = INITIAL[w.type];
      w.onHold = false;
      w.probedThisContainer = false;
    }
    if (w.onHold) return true;
    if (c.current.kind !== 'running') {
      w.result = 'Failure';
      return c.current.kind !== 'terminated' || rec.pod.spec?.restartPolicy !== 'Never';
    }
    if (rec.pod.metadata.deletionTimestamp && w.type !== 'readiness') {
      w.result = 'Success';
      return false;
    }
    const startedAt = c.startedAtMs ?? this.ctx.clock.now();
    if (Math.trunc((this.ctx.clock.now() - startedAt) / 1000) < (w.spec.initialDelaySeconds ?? 0)) return true;
    const started = this.started(rec, c);
    if (started ? w.type === 'startup' : w.type !== 'startup') return true;
    w.probedThisContainer = true;
    const { result, output, error, tookMs } = this.runProbe(rec, c, w.spec);
    const id = c.containerID;
    const finish = () => {
      if (w.stopped || c.containerID !== id || w.containerID !== id) return;
      const ref = containerRef(rec.pod, c.name);
      if (error !== undefined) {
        this.recorder.event(ref, 'Warning', 'Unhealthy', `${TYPE_NAME[w.type]} probe errored and resulted in unknown state: ${error}`);
        return;
      }
      if (result === 'Failure') this.recorder.event(ref, 'Warning', 'Unhealthy', `${TYPE_NAME[w.type]} probe failed: ${output}`);
      if (w.lastResult === result) w.resultRun++;
      else {
        w.lastResult = result;
        w.resultRun = 1;
      }
      if (
        (result === 'Failure' && w.resultRun < (w.spec.failureThreshold ?? 3)) ||
        (result === 'Success' && w.resultRun < (w.spec.successThreshold ?? 1))
      )
        return;
      const changed = w.result !== result;
      w.result = result;
      if (w.type !== 'readiness' && result === 'Failure') {
        w.onHold = true;
        w.resultRun = 0;
      }
      if (changed || (w.type !== 'readiness' && result === 'Failure')) this.hooks.onResult(rec, c, w.type, result);
    };
    if (tookMs > 0)
      this.timers.set(tookMs, finish, { label: `${TYPE_NAME[w.type]} probe of ${rec.namespace}/${rec.name}/${c.name} answers` });
    else finish();
    return true;
  }

  /** prober.runProbe: one attempt of the handler against the simulated container. */
  private runProbe(rec: PodRecord, c: ContainerRecord, p: ProbeSpec): { result: Result; output: string; error?: string; tookMs: number } {
    const timeoutMs = (p.timeoutSeconds ?? 1) * 1000;
    const podIP = rec.sandbox?.ip ?? rec.podIP ?? '';
    const spec = c.spec as { ports?: { name?: string; containerPort: number }[] };
    if (p.exec) {
      const argv = p.exec.command ?? [];
      if (!argv.length)
        return {
          result: 'Failure',
          output: '',
          error: 'rpc error: code = Unknown desc = failed to exec in container: empty command',
          tookMs: 0,
        };
      const r = this.hooks.exec(rec, c, argv, timeoutMs);
      if (r.exitCode === -1) return { result: 'Failure', output: `command ${JSON.stringify(argv.join(' '))} timed out`, tookMs: timeoutMs };
      return { result: r.exitCode === 0 ? 'Success' : 'Failure', output: r.output, tookMs: r.tookMs };
    }
    if (p.httpGet) {
      const port = extractPort(p.httpGet.port, spec);
      if (typeof port === 'string') return { result: 'Failure', output: '', error: port, tookMs: 0 };
      const host = p.httpGet.host || podIP;
      const hostPort = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
      const path = p.httpGet.path ?? '/';
      const target = path.startsWith('/') ? path : '/' + path;
      if (!p.httpGet.host || p.httpGet.host === podIP) {
        const answer = this.hooks.httpGet ? this.hooks.httpGet(rec, port, target) : this.hooks.serves(rec, port) ? { status: 200 } : null;
        // DoHTTPProbe: 200 ≤ code < 400 is success (redirects are followed or warned about)
        if (answer && answer.status >= 200 && answer.status < 400) return { result: 'Success', output: '', tookMs: 0 };
        if (answer) return { result: 'Failure', output: `HTTP probe failed with statuscode: ${answer.status}`, tookMs: 0 };
      }
      return {
        result: 'Failure',
        output: `Get "${(p.httpGet.scheme ?? 'HTTP').toLowerCase()}://${hostPort}${path.startsWith('/') ? path : '/' + path}": dial tcp ${hostPort}: connect: connection refused`,
        tookMs: 0,
      };
    }
    if (p.tcpSocket) {
      const port = extractPort(p.tcpSocket.port, spec);
      if (typeof port === 'string') return { result: 'Failure', output: '', error: port, tookMs: 0 };
      const host = p.tcpSocket.host || podIP;
      if (this.hooks.serves(rec, port) && (!p.tcpSocket.host || p.tcpSocket.host === podIP))
        return { result: 'Success', output: '', tookMs: 0 };
      return { result: 'Failure', output: `dial tcp ${host}:${port}: connect: connection refused`, tookMs: 0 };
    }
    if (p.grpc) {
      if (this.hooks.serves(rec, p.grpc.port)) return { result: 'Success', output: '', tookMs: 0 };
      return {
        result: 'Failure',
        output: `timeout: failed to connect service "${podIP}:${p.grpc.port}" within ${p.timeoutSeconds ?? 1}s: context deadline exceeded`,
        tookMs: timeoutMs,
      };
    }
    return {
      result: 'Failure',
      output: '',
      error: `missing probe handler for ${rec.name}_${rec.namespace}(${rec.uid}):${c.name}`,
      tookMs: 0,
    };
  }

  /** The probe ports of a container spec (what an assumed process serves when it declares none). */
  static probePorts(c: Container): number[] {
    const out: number[] = [];
    for (const t of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
      const p: ProbeSpec | undefined = c?.[t];
      const raw = p?.httpGet?.port ?? p?.tcpSocket?.port ?? p?.grpc?.port;
      if (raw === undefined) continue;
      const port = extractPort(raw, c);
      if (typeof port === 'number') out.push(port);
    }
    return out;
  }
}

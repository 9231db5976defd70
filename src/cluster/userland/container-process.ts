/**
 * What a container's main process does, interpreted from the manifest (image, command, args):
 * no real image runs, the manifest says what the container does. The argv is
 * the kubelet's (command replaces the image ENTRYPOINT, args its CMD, `$(VAR)` expanded as
 * pkg/kubelet/kuberuntime/kuberuntime_container.go → container.ExpandContainerCommandAndArgs)
 * run by the small shell of shell.ts against the container's filesystem (filesystem.ts).
 *
 * Real-world details kept: `sh`/`sleep` as PID 1 install no SIGTERM handler, so the kernel
 * ignores SIGTERM and the container only dies at the end of the grace period (exit 137) —
 * `kubectl delete pod` of a busybox sleeper takes 30 s — unless the script `trap`s TERM. A
 * busybox / alpine / ubuntu / debian container without command runs its default `sh` with no
 * stdin and exits 0 at once. Perl one-liners (perl.ts) print and exit: the docs' pi Job
 * `perl -Mbignum=bpi -wle "print bpi(2000)"` logs 2000 digits of π and exits 0 after ~2 s.
 * A command the shell does not model (an app binary, python, a `$(…)` substitution) runs as a
 * long-lived process that serves its ports and exits on SIGTERM: it is *assumed* (the UI
 * says so).
 *
 * Durations are simulated ms.
 */
import { ContainerFS } from './filesystem';
import { Shell, type ShellContext, type Sleep } from './shell';
import { CERTGEN_IMAGE, runCertgen } from './images/certgen';
import type { InCluster } from './images/in-cluster';
import { INGRESS_NGINX_CONTROLLER_IMAGE, ingressNginxListenPorts } from './images/ingress-nginx-controller';
import { hasOwn } from '../api/safe-object';

/** Images whose default command is an interactive shell (exits at once without a TTY). */
const SHELL_IMAGES = /(^|\/)(busybox|alpine|ubuntu|debian)(:|@|$)/;

/** Container fields the process reads. */
export interface ProcessSpec {
  image?: string;
  command?: string[];
  args?: string[];
}

/** Where the process is after running until it blocks. */
export type ProcessState = { kind: 'sleeping'; ms: number; inLoop: boolean } | { kind: 'exited'; exitCode: number } | { kind: 'forever' };

/**
 * expandContainerCommandAndArgs (pkg/kubelet/container/helpers.go → third_party expansion):
 * `$(VAR)` replaced from the container env, `$$(VAR)` escapes to `$(VAR)`, unknown stay as-is.
 */
export function expandKubeVars(s: string, env: Record<string, string>): string {
  return s.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m, name) => (m === '$$' ? '$' : hasOwn(env, name) ? env[name] : m));
}

/** The argv a container runs (image defaults are not known, so an empty argv means "the image's own"). */
export function containerArgv(c: ProcessSpec, env: Record<string, string> = {}): string[] {
  return [...(c.command ?? []), ...(c.args ?? [])].map((a) => expandKubeVars(a, env));
}

/**
 * What a container process runs with: the shell's context (filesystem, env, clock) and, when
 * the kubelet starts it in a Pod, its in-cluster API access (images/in-cluster.ts) for the
 * programs that talk to the apiserver (images/*.ts).
 */
export type ProcessContext = Omit<ShellContext, 'write'> & { inCluster?: InCluster };

/** The process of one container run: drive it with {@link ContainerProcess.step}. */
export class ContainerProcess {
  private gen: Generator<Sleep, number> | null;
  readonly shell: Shell;
  private logText = '';
  private done: ProcessState | null = null;
  /**
   * The TCP ports the program listens on when its image is known (images/*.ts); undefined:
   * an assumed process listens on its declared containerPorts (or its probes' ports).
   */
  readonly listenPorts?: readonly number[];

  constructor(
    readonly spec: ProcessSpec,
    readonly ctx: ProcessContext,
    private readonly log: (line: string) => void = () => {},
  ) {
    const full: ShellContext = ctx as ShellContext;
    full.write = (t) => this.write(t);
    this.shell = new Shell(full);
    const argv = containerArgv(spec, ctx.vars);
    if (spec.image && INGRESS_NGINX_CONTROLLER_IMAGE.test(spec.image)) this.listenPorts = ingressNginxListenPorts(argv);
    if (argv.length === 0) {
      if (spec.image && SHELL_IMAGES.test(spec.image)) {
        this.gen = null;
        this.done = { kind: 'exited', exitCode: 0 };
      } else {
        full.assumed = true;
        this.gen = null;
        this.done = { kind: 'forever' };
      }
      return;
    }
    const io = { out: (s: string) => full.write(s), err: (s: string) => full.write(s), stdin: '' };
    // programs simulated by image (images/*.ts) when the image's own entrypoint runs
    if (ctx.inCluster && spec.image && CERTGEN_IMAGE.test(spec.image) && !spec.command?.length) {
      this.gen = runCertgen(argv, ctx.inCluster, ctx.now, io);
      return;
    }
    this.gen = this.shell.exec(argv, io);
  }

  private write(t: string): void {
    this.logText += t;
    let i: number;
    while ((i = this.logText.indexOf('\n')) >= 0) {
      this.log(this.logText.slice(0, i));
      this.logText = this.logText.slice(i + 1);
    }
  }

  /** True when the process runs something we do not model (it serves its ports, assumed). */
  get assumed(): boolean {
    return !!this.ctx.assumed;
  }

  /** PID 1 without a SIGTERM handler: sh, sleep (unless the script traps TERM). */
  get ignoresSigterm(): boolean {
    return !this.assumed && !this.ctx.trapsTerm;
  }

  /** Runs until the process sleeps, exits or blocks forever. */
  step(): ProcessState {
    if (this.done) return this.done;
    const r = this.gen!.next();
    if (r.done) {
      if (this.logText) this.write('\n');
      this.done = { kind: 'exited', exitCode: r.value };
      return this.done;
    }
    // a partial line reaches the log when the process blocks (containerd's "P" log entries)
    if (this.logText) this.write('\n');
    if (r.value.ms === Infinity) {
      this.done = { kind: 'forever' };
      return this.done;
    }
    return { kind: 'sleeping', ms: r.value.ms, inLoop: r.value.inLoop };
  }
}

/** The result of running a command once inside a container (an exec probe, `kubectl exec`). */
export interface ExecResult {
  exitCode: number;
  /** combined stdout and stderr */
  output: string;
  /** simulated ms it took (sleeps) */
  tookMs: number;
  /** a command we do not model: assumed to succeed */
  assumed: boolean;
}

/**
 * Runs argv in a container synchronously (ExecSync, as an exec probe does). Sleeps add to
 * `tookMs` up to `timeoutMs`; past it the command counts as timed out (exit code -1).
 */
export function execInContainer(argv: string[], ctx: Omit<ShellContext, 'write'>, timeoutMs: number): ExecResult {
  let output = '';
  const sc: ShellContext = { ...ctx, vars: { ...ctx.vars }, assumed: false, trapsTerm: false, write: () => {} };
  const sh = new Shell(sc);
  const gen = sh.exec(argv, {
    out: (s) => {
      output += s;
    },
    err: (s) => {
      output += s;
    },
    stdin: '',
  });
  let took = 0;
  for (;;) {
    const r = gen.next();
    if (r.done) return { exitCode: r.value, output, tookMs: took, assumed: false };
    if (r.value.ms === Infinity)
      return { exitCode: sc.assumed ? 0 : -1, output, tookMs: sc.assumed ? 0 : timeoutMs, assumed: !!sc.assumed };
    took += r.value.ms;
    if (took > timeoutMs) return { exitCode: -1, output, tookMs: timeoutMs, assumed: false };
  }
}

/** The interpreted behaviour of one container run, summarized (tests, UI previews). */
export type ProcessPlan =
  | { kind: 'exits'; afterMs: number; exitCode: number; stdout: string[]; ignoresSigterm: boolean }
  | { kind: 'runs'; stdout: string[]; ignoresSigterm: boolean; assumed: boolean };

/**
 * Runs a container's process to its end on a scratch filesystem (no volumes, empty env but
 * HOME/PATH) and summarizes it. Loops stop being followed after 10,000 sleeps (then "runs").
 */
export function planProcess(
  c: ProcessSpec,
  env: Record<string, string> = { HOME: '/root', PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' },
): ProcessPlan {
  const stdout: string[] = [];
  const ctx: Omit<ShellContext, 'write'> = { fs: new ContainerFS(), vars: { ...env }, hostname: 'pod', now: () => 0 };
  const p = new ContainerProcess(c, ctx, (l) => stdout.push(l));
  let t = 0;
  for (let i = 0; i < 10_000; i++) {
    const s = p.step();
    if (s.kind === 'exited')
      return {
        kind: 'exits',
        afterMs: t,
        exitCode: s.exitCode,
        stdout,
        ignoresSigterm: p.ignoresSigterm || (!c.command?.length && !c.args?.length),
      };
    if (s.kind === 'forever') return { kind: 'runs', stdout, ignoresSigterm: p.ignoresSigterm, assumed: p.assumed };
    t += s.ms;
  }
  return { kind: 'runs', stdout, ignoresSigterm: p.ignoresSigterm, assumed: false };
}

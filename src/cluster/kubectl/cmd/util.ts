/**
 * Shared plumbing of the kubectl commands: argument splitting, cobra/pflag-style flag
 * parsing with kubectl's error texts, results, and resource resolution — after
 * staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go (CheckErr, UsageErrorf) and
 * k8s.io/cli-runtime/pkg/resource (builder: TYPE NAME…, TYPE/NAME…, comma lists).
 */
import type { Client } from '../../client/clientset';
import { StatusError, goQuote, kubectlErrorMessage } from '../../api/errors';
import type { ResourceInfo } from '../../api/resources';
import type { ImpersonationRequest } from '../../apiserver/auth/impersonation';

/** What a kubectl run prints. */
export interface KubectlResult {
  /** stdout, exactly */
  output: string;
  /** stderr, exactly (each line ends with "\n"), or null */
  error: string | null;
  /** 0 on success, 1 on error (kubectl's exit code) */
  exitCode: number;
}

/** Container info as the kubelet reports it (Kubelet.containerInfo). */
export interface ContainerInfoLike {
  name: string;
  assumed: boolean;
  logs: string[];
  previousLogs: string[];
}

/** What kubectl can reach besides the apiserver client (all optional). */
export interface KubectlEnv {
  /** kubelets by node name, for `kubectl logs` */
  kubelets?: Map<string, { containerInfo(namespace: string, pod: string, container?: string): ContainerInfoLike[] }>;
  /** the simulated metrics-server, for `kubectl top` (duck-typed) */
  metrics?: unknown;
  /** text for `-f -` (stdin) */
  stdin?: string;
  /**
   * The kubeconfig user's impersonation (clientcmd api.AuthInfo `as`, `as-groups`: the UI's
   * "Acting as"): every request of the command is made as this identity unless the line's own
   * `--as` overrides it (client-go rest.ImpersonationConfig; the flags win over the kubeconfig).
   */
  as?: ImpersonationRequest;
}

/** Everything a command gets. */
export interface Ctx {
  client: Client;
  nowMs: number;
  env: KubectlEnv;
  args: string[];
  flags: Map<string, string>;
  /** repeated flags (e.g. --from-literal), every value in order */
  multi: Map<string, string[]>;
  namespace: string;
  /** the command path for help texts, e.g. "get", "rollout status" */
  cmd: string;
  /** cobra's ArgsLenAtDash: how many args came before `--` (-1: no `--`) */
  argsLenAtDash?: number;
}

/** A flag: long name → bool (no argument) or string, with its shorthand. */
export interface FlagSpec {
  [long: string]: { bool?: boolean; short?: string };
}

/** Flags every command accepts (kubectl's global flags, the ones that matter here). */
export const GLOBAL_FLAGS: FlagSpec = {
  namespace: { short: 'n' },
  context: {},
  cluster: {},
  user: {},
  kubeconfig: {},
  v: { short: 'v' },
  'request-timeout': {},
  server: { short: 's' },
  // a bearer token (a ServiceAccount token from `kubectl create token`): APIServer.authenticateToken
  token: {},
  // impersonation (genericclioptions.ConfigFlags: --as, --as-group repeatable, --as-uid)
  as: {},
  'as-group': {},
  'as-uid': {},
};

/** A usage-style error thrown while parsing or validating a command. */
export class KubectlError extends Error {}

/** Splits a command line like a POSIX shell would for simple quoting ('…', "…", \x). */
export function splitArgs(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let has = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && (line[i + 1] === '"' || line[i + 1] === '\\')) cur += line[++i];
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      cur += line[++i];
    } else if (/\s/.test(ch)) {
      if (cur || has) out.push(cur);
      cur = '';
      has = false;
    } else cur += ch;
  }
  if (cur || has) out.push(cur);
  return out;
}

/** pflag parsing: --name=value, --name value, -n value, -nvalue, bools, `--`. */
export function parseFlags(
  argv: string[],
  spec: FlagSpec,
  cmd: string,
): { args: string[]; flags: Map<string, string>; multi: Map<string, string[]>; argsLenAtDash: number } {
  const all: FlagSpec = { ...GLOBAL_FLAGS, ...spec };
  const byShort = new Map<string, string>();
  for (const [k, v] of Object.entries(all)) if (v.short) byShort.set(v.short, k);
  const args: string[] = [];
  const flags = new Map<string, string>();
  const multi = new Map<string, string[]>();
  const set = (k: string, v: string): void => {
    flags.set(k, v);
    multi.set(k, [...(multi.get(k) ?? []), v]);
  };
  const usage = `See 'kubectl ${cmd} --help' for usage.`;
  let argsLenAtDash = -1;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      argsLenAtDash = args.length;
      args.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      const f = all[name];
      if (!f) throw new KubectlError(`error: unknown flag: --${name}\n${usage}`);
      if (eq >= 0) set(name, a.slice(eq + 1));
      else if (f.bool) set(name, 'true');
      else if (i + 1 < argv.length) set(name, argv[++i]);
      else throw new KubectlError(`error: flag needs an argument: --${name}\n${usage}`);
    } else if (a.startsWith('-') && a.length > 1 && a !== '-') {
      let j = 1;
      while (j < a.length) {
        const s = a[j];
        const name = byShort.get(s);
        if (!name) throw new KubectlError(`error: unknown shorthand flag: '${s}' in ${a}\n${usage}`);
        if (all[name].bool) {
          set(name, a[j + 1] === '=' ? a.slice(j + 2) : 'true');
          if (a[j + 1] === '=') break;
          j++;
          continue;
        }
        const rest = a.slice(j + 1).replace(/^=/, '');
        if (rest) set(name, rest);
        else if (i + 1 < argv.length) set(name, argv[++i]);
        else throw new KubectlError(`error: flag needs an argument: '${s}' in -${s}\n${usage}`);
        break;
      }
    } else args.push(a);
  }
  return { args, flags, multi, argsLenAtDash };
}

export const ok = (output: string, error: string | null = null): KubectlResult => ({ output, error, exitCode: 0 });
export const fail = (error: string, output = ''): KubectlResult => ({
  output,
  error: error.endsWith('\n') ? error : `${error}\n`,
  exitCode: 1,
});

/** "deployment.apps" or "pod": the resource type as kubectl's name printer writes it. */
export function typeName(info: ResourceInfo): string {
  return info.group ? `${info.kind.toLowerCase()}.${info.group}` : info.kind.toLowerCase();
}

/** The `help` hint kubectl appends to usage errors. */
export function seeHelp(cmd: string): string {
  return `See 'kubectl ${cmd} -h' for help and examples`;
}

/** One requested resource type and the names asked for (empty: all). */
export interface Target {
  info: ResourceInfo;
  names: string[];
}

/** Resolves a type the way the RESTMapper does, or throws kubectl's error. */
export function resolveType(client: Client, t: string): ResourceInfo {
  const info = client.api.registry.resolve(t);
  if (!info) throw new KubectlError(`error: the server doesn't have a resource type "${t}"`);
  return info;
}

/** The resource builder's argument forms: `TYPE[,TYPE…] [NAME…]` or `TYPE/NAME …`. */
export function resolveTargets(client: Client, args: string[], expand?: (t: string) => string[] | undefined): Target[] {
  const out: Target[] = [];
  if (args.some((a) => a.includes('/'))) {
    for (const a of args) {
      if (!a.includes('/'))
        throw new KubectlError(
          `error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'`,
        );
      const [t, name] = [a.slice(0, a.indexOf('/')), a.slice(a.indexOf('/') + 1)];
      const info = resolveType(client, t);
      const hit = out.find((x) => x.info === info);
      if (hit) hit.names.push(name);
      else out.push({ info, names: [name] });
    }
    return out;
  }
  for (const t of args[0].split(',').filter(Boolean)) {
    const expanded = expand?.(t);
    if (expanded) {
      for (const e of expanded) {
        const info = client.api.registry.resolve(e);
        if (info && !out.some((x) => x.info === info)) out.push({ info, names: args.slice(1) });
      }
      continue;
    }
    const info = resolveType(client, t);
    if (!out.some((x) => x.info === info)) out.push({ info, names: args.slice(1) });
  }
  return out;
}

/** Runs `fn`, turning a StatusError into kubectl's stderr line. */
export function tryStatus<T>(fn: () => T): { value?: T; error?: string } {
  try {
    return { value: fn() };
  } catch (e) {
    if (e instanceof StatusError) return { error: kubectlErrorMessage(e) };
    throw e;
  }
}

/** Joins stderr lines (each ending with "\n"), or null when there are none. */
export function stderrOf(lines: string[]): string | null {
  const l = lines.filter(Boolean);
  return l.length ? l.map((x) => (x.endsWith('\n') ? x : `${x}\n`)).join('') : null;
}

/** Levenshtein distance (cobra's command suggestions). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length][b.length];
}

/**
 * A list by selector as kubectl's resource.Selector visitor runs it
 * (staging/src/k8s.io/cli-runtime/pkg/resource/selector.go Visit): a 400 or 404 from the
 * server keeps its reason, its message prefixed with what was listed —
 * `Unable to find "/v1, Resource=pods" that match label selector "a b", field selector "": …`.
 * @throws StatusError (rewritten), anything else unchanged
 */
export function listVisited<T>(info: ResourceInfo, labelSelector: string | undefined, fieldSelector: string | undefined, list: () => T): T {
  try {
    return list();
  } catch (e) {
    if (!(e instanceof StatusError) || (e.status.code !== 400 && e.status.code !== 404)) throw e;
    const gvr = goQuote(`${info.group}/${info.version}, Resource=${info.resource}`);
    const message =
      !labelSelector && !fieldSelector
        ? `Unable to list ${gvr}: ${e.status.message}`
        : `Unable to find ${gvr} that match label selector ${goQuote(labelSelector ?? '')}, field selector ${goQuote(fieldSelector ?? '')}: ${e.status.message}`;
    throw new StatusError({ ...e.status, message });
  }
}

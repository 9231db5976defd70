/**
 * `kubectl exec POD [-c CONTAINER] -- COMMAND [ARGS…]`, as staging/src/k8s.io/kubectl/pkg/cmd/exec
 * (default container with the `Defaulted container "X" out of: X, Y` notice, pods/exec through
 * the apiserver to the kubelet, `command terminated with exit code N` on a non-zero exit).
 *
 * The command runs in the simulated container: the shell subset of userland/shell.ts against the
 * container's files (so `touch`, `rm`, `cat`, `echo … > file` change what probes and later Pods
 * see), except for the network tools, which go through the cluster's data plane:
 * - `nslookup NAME` → cluster DNS from the Pod's namespace (traffic/nslookup.ts, bind's output);
 * - `curl [-s] [-S] [-i] URL`, `wget -qO- URL` → the traffic generator from this Pod
 *   (traffic/traffic.ts): the response body on stdout; on failure curl's message on stderr
 *   (suppressed by -s unless -S) and curl's exit code (6, 7, 28, 60), or 22 with -f on HTTP ≥ 400.
 *   `-H "Name: value"` headers are sent; `https://kubernetes.default.svc/…` reaches kube-apiserver
 *   (traffic/apiserver-http.ts), which authenticates `-H "Authorization: Bearer TOKEN"` (the Pod's
 *   token file holds one: `cat /var/run/secrets/kubernetes.io/serviceaccount/token`); curl
 *   verifies its certificate unless `-k`/`--insecure` or `--cacert FILE` is given (else error 60).
 *   `sh -c 'curl … "$(cat FILE)" …'` and `sh -c 'T=$(cat FILE); curl … "$T" …'` run the same way
 *   ({@link shellCurl}); other scripts go to the container's shell, which has no curl.
 */
import type { KObject } from '../../api/types';
import type { DnsLookupResult, PodExecResult, TrafficRequest, TrafficResult } from '../../userland/traffic-types';
import { fromLabelSelector, selectorString } from '../../api/labels';
import { KubectlError, fail, resolveType, seeHelp, type Ctx, type FlagSpec, type KubectlResult } from './util';
import { parse, type Node, type Word } from '../../userland/shell-parse';

/** Flags of `kubectl exec`. */
export const EXEC_FLAGS: FlagSpec = {
  container: { short: 'c' },
  stdin: { bool: true, short: 'i' },
  tty: { bool: true, short: 't' },
  quiet: { bool: true, short: 'q' },
  'pod-running-timeout': {},
  filename: { short: 'f' },
};

/** What one command run in a container returned, re-exported from userland/traffic-types.ts. */
export type { PodExecResult } from '../../userland/traffic-types';

/** What `kubectl exec` needs beyond the API (the kubelets' containers, the data plane); given by cluster.ts. */
export interface ExecEnv {
  /** Runs argv in a running container of a Pod (the kubelet's exec); null when the kubelet has no such running container. */
  podExec?(pod: KObject, container: string, argv: string[]): PodExecResult | null;
  /** `nslookup` through cluster DNS, as a Pod of `namespace` (relay participant `from`). */
  nslookup?(name: string, namespace: string, from: string): DnsLookupResult;
  /** The traffic generator. */
  sendRequests?(req: TrafficRequest): TrafficResult[];
}

/** curl's exit code for a failure message (`curl: (7) …` → 7). */
function curlExit(message: string): number {
  const m = /^curl: \((\d+)\)/.exec(message);
  return m ? Number(m[1]) : 1;
}

function runCurl(env: ExecEnv, pod: KObject, argv: string[]): PodExecResult {
  const tool = argv[0];
  let silent = false;
  let showErr = false;
  let failHttp = false;
  let include = false;
  let insecure = false;
  let cacert: string | undefined;
  const headers: [string, string][] = [];
  let url: string | undefined;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    // -H / --header (curl), --header (wget): "Name: value"
    if (a === '-H' || a === '--header') {
      const h = argv[++i] ?? '';
      const colon = h.indexOf(':');
      if (colon > 0) headers.push([h.slice(0, colon).trim(), h.slice(colon + 1).trim()]);
      continue;
    }
    if (a === '--cacert') {
      cacert = argv[++i];
      continue;
    }
    if (a === '-o' || a === '-O' || a === '-m' || a === '--max-time' || a === '--connect-timeout' || a === '-T' || a === '-U') {
      if (a !== '-O') i++;
      continue;
    }
    if (/^-[a-zA-Z]+$/.test(a)) {
      if (tool === 'curl') {
        if (a.includes('s')) silent = true;
        if (a.includes('S')) showErr = true;
        if (a.includes('f')) failHttp = true;
        if (a.includes('i')) include = true;
        if (a.includes('k')) insecure = true;
      } else if (a.includes('q')) silent = true;
      if (tool === 'wget' && a.endsWith('O')) i++;
      continue;
    }
    if (a.startsWith('--')) {
      if (a === '--silent') silent = true;
      else if (a === '--show-error') showErr = true;
      else if (a === '--fail') failHttp = true;
      else if (a === '--insecure' || a === '--no-check-certificate') insecure = true;
      continue;
    }
    url = a;
  }
  if (!url)
    return {
      exitCode: tool === 'curl' ? 2 : 1,
      stdout: '',
      stderr:
        tool === 'curl'
          ? "curl: try 'curl --help' or 'curl --manual' for more information\n"
          : 'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: wget [-cqS] [--spider] [-O FILE] [-o LOGFILE] [--header STR]\n',
    };
  // busybox wget does not verify certificates: it says so (unless --no-check-certificate) and goes on
  const note = tool === 'wget' && /^https:\/\//i.test(url) && !insecure ? 'wget: note: TLS certificate validation not implemented\n' : '';
  if (tool === 'wget') insecure = true;
  const [r] = env.sendRequests!({
    source: { kind: 'pod', namespace: pod.metadata.namespace ?? 'default', name: pod.metadata.name },
    url,
    count: 1,
    ...(headers.length ? { headers } : {}),
    ...(insecure || cacert ? { tls: { ...(insecure ? { insecure } : {}), ...(cacert ? { cacert } : {}) } } : {}),
  });
  if (r.status === null) {
    if (tool === 'wget') {
      const host = /curl: \(6\)/.test(r.message)
        ? `wget: bad address '${r.message.replace(/^.*Could not resolve host: /, '')}'`
        : "wget: can't connect to remote host: Connection refused";
      return { exitCode: 1, stdout: '', stderr: `${silent ? '' : `Connecting to ${url}\n`}${note}${host}\n` };
    }
    return { exitCode: curlExit(r.message), stdout: '', stderr: !silent || showErr ? `${r.message}\n` : '' };
  }
  // a server's page as sent (nginx's ends with a newline); the assumed one-line answer gets one
  const body = r.exactBody || (r.body ?? '').endsWith('\n') ? (r.body ?? '') : `${r.body ?? ''}\n`;
  if (tool === 'wget') {
    if (r.status >= 400)
      return {
        exitCode: 1,
        stdout: '',
        stderr: `${note}wget: server returned error: HTTP/1.1 ${r.message.replace(/^HTTP\/1\.1 /, '').replace(/ · .*$/, '')}\n`,
      };
    return { exitCode: 0, stdout: body, stderr: note };
  }
  if (failHttp && r.status >= 400)
    return { exitCode: 22, stdout: '', stderr: !silent || showErr ? `curl: (22) The requested URL returned error: ${r.status}\n` : '' };
  const head = include ? `${r.message.replace(/ · .*$/, '')}\r\n\r\n` : '';
  return { exitCode: 0, stdout: head + body, stderr: '' };
}

/** `$(cat PATH)` or `` `cat PATH` `` in a script: the command substitutions {@link shellCurl} runs. */
const CAT_SUBSTITUTION = /\$\(\s*cat\s+([\w./-]+)\s*\)|`\s*cat\s+([\w./-]+)\s*`/g;

/**
 * `sh -c 'curl …'` — the common in-Pod form, `curl -H "Authorization: Bearer $(cat …/token)" …`
 * or `TOKEN=$(cat …/token); curl -H "Authorization: Bearer $TOKEN" …`: the container's shell
 * would run curl, which the simulated shell does not have. Recognized when the script is
 * assignments followed by one curl/wget command (`;` or `&&` between them, no pipes or
 * redirections) and its only command substitutions read a file (`$(cat PATH)`, trailing
 * newlines dropped as the shell drops them); the argv, expanded as the shell would, goes to
 * {@link runCurl}. Anything else is null (the shell runs it as before).
 * @param cat reads a file of the container (`cat PATH` through the kubelet's exec): its stdout, stderr
 */
function shellCurl(script: string, cat: (path: string) => PodExecResult | null): { argv: string[]; stderr: string } | null {
  let stderr = '';
  let bad = false;
  const text = script.replace(CAT_SUBSTITUTION, (_m, a: string | undefined, b: string | undefined) => {
    const r = cat(a ?? b ?? '');
    if (!r) bad = true;
    // a failed cat: its message on stderr (the exec merges the streams), nothing substituted
    const failed = !!r && r.exitCode !== 0;
    stderr += (r?.stderr ?? '') + (failed ? r.stdout : '');
    const out = failed ? '' : (r?.stdout ?? '').replace(/\n+$/, '');
    // only contents the shell would keep as one plain word (a token, a namespace)
    if (!/^[\w.+/=:-]*$/.test(out)) bad = true;
    return out;
  });
  if (bad) return null;
  let tree: Node;
  try {
    tree = parse(text);
  } catch {
    return null;
  }
  const steps: Node[] = tree.t === 'seq' ? tree.list : tree.t === 'and' ? [tree.a, tree.b] : [tree];
  const vars = new Map<string, string>();
  const expand = (w: Word): string => w.map((p) => ('lit' in p ? p.lit : (vars.get(p.v) ?? ''))).join('');
  for (let i = 0; i < steps.length; i++) {
    const n = steps[i];
    if (n.t !== 'cmd' || n.redirs.length) return null;
    const words = n.words.map(expand);
    const assign = words.every((w) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
    if (i < steps.length - 1) {
      if (!assign) return null;
      for (const w of words) vars.set(w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1));
      continue;
    }
    const argv: string[] = [];
    n.words.forEach((w, j) => {
      // an unquoted lone expansion splits on blanks (and vanishes when empty), as expandWords does
      if (w.length === 1 && 'v' in w[0] && !w[0].quoted) argv.push(...words[j].split(/\s+/).filter(Boolean));
      else argv.push(words[j]);
    });
    const tool = argv[0]?.split('/').pop();
    if (tool !== 'curl' && tool !== 'wget') return null;
    return { argv: [tool, ...argv.slice(1)], stderr };
  }
  return null;
}

/**
 * POD or TYPE/NAME → the Pod (polymorphichelpers.AttachablePodForObject: for a workload or a
 * Service, the first of its Pods — Running first, then the oldest, then by name).
 */
function podFor(ctx: Ctx, arg: string): KObject {
  const pods = ctx.client.resource('', 'pods');
  const slash = arg.indexOf('/');
  if (slash < 0) return pods.get(ctx.namespace, arg);
  const info = resolveType(ctx.client, arg.slice(0, slash));
  const name = arg.slice(slash + 1);
  if (info.kind === 'Pod') return pods.get(ctx.namespace, name);
  const owner = ctx.client.resource(info.group, info.resource).get(info.namespaced ? ctx.namespace : '', name);
  const sel = info.kind === 'Service' ? { matchLabels: owner.spec?.selector ?? {} } : owner.spec?.selector;
  if (!sel) throw new KubectlError(`error: cannot attach to ${info.kind}: selector for ${name} not implemented`);
  const list = pods
    .list(ctx.namespace, { labelSelector: selectorString(fromLabelSelector(sel)) })
    .items.filter((p: KObject) => !p.metadata.deletionTimestamp);
  if (!list.length) throw new KubectlError('error: timed out waiting for the condition');
  const running = (p: KObject) => (p.status?.phase === 'Running' ? 0 : 1);
  return [...list].sort(
    (a, b) =>
      running(a) - running(b) ||
      (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
      a.metadata.name.localeCompare(b.metadata.name),
  )[0];
}

/** Runs `kubectl exec`. */
export function runExec(ctx: Ctx): KubectlResult {
  const env = ctx.env as ExecEnv;
  const [target, ...command] = ctx.args;
  if (!target)
    throw new KubectlError(
      `error: expected 'exec POD_NAME COMMAND [ARG1] [ARG2] ... [ARGN]'.\nPOD_NAME and COMMAND are required arguments for the exec command\n${seeHelp('exec')}`,
    );
  // exec.go Complete: without `--` a command is a usage error since kubectl 1.31
  if ((ctx.argsLenAtDash ?? -1) < 0 && command.length)
    throw new KubectlError(`error: exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead\n${seeHelp('exec')}`);
  if (!command.length) throw new KubectlError(`error: you must specify at least one command for the container\n`);
  const pod = podFor(ctx, target);
  const name = pod.metadata.name;
  const containers: string[] = ((pod.spec?.containers ?? []) as KObject[]).map((c) => c.name);
  let notice = '';
  let container = ctx.flags.get('container');
  if (!container) {
    container = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'] ?? containers[0];
    if (containers.length > 1 && !ctx.flags.get('quiet')) notice = `Defaulted container "${container}" out of: ${containers.join(', ')}\n`;
  } else if (!containers.includes(container) && !((pod.spec?.initContainers ?? []) as KObject[]).some((c) => c.name === container)) {
    return fail(`${notice}error: unable to upgrade connection: container ${container} not found in pod ${name}_${ctx.namespace}`);
  }
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed')
    return fail(`${notice}error: cannot exec into a container in a completed pod; current phase is ${phase}`);
  const running = ((pod.status?.containerStatuses ?? []) as KObject[]).find((s) => s.name === container)?.state?.running;
  if (!running) return fail(`${notice}error: unable to upgrade connection: container not found ("${container}")`);
  let r: PodExecResult | null;
  let sc: ReturnType<typeof shellCurl> = null;
  const tool = command[0].split('/').pop()!;
  if (tool === 'nslookup' && env.nslookup) {
    const q = command.slice(1).find((a) => !a.startsWith('-'));
    if (!q) r = { exitCode: 1, stdout: '', stderr: 'Usage: nslookup HOST\n' };
    else {
      const l = env.nslookup(q, pod.metadata.namespace ?? 'default', `pod/${pod.metadata.namespace}/${pod.metadata.name}`);
      r = l.status === 'NOERROR' ? { exitCode: 0, stdout: l.output, stderr: '' } : { exitCode: 1, stdout: l.output, stderr: '' };
    }
  } else if ((tool === 'curl' || tool === 'wget') && env.sendRequests) {
    r = runCurl(env, pod, [tool, ...command.slice(1)]);
  } else if (
    (tool === 'sh' || tool === 'ash' || tool === 'bash') &&
    command[1] === '-c' &&
    command.length === 3 &&
    env.sendRequests &&
    env.podExec &&
    (sc = shellCurl(command[2], (path) => env.podExec!(pod, container!, ['cat', path])))
  ) {
    const out = runCurl(env, pod, sc.argv);
    r = { ...out, stderr: sc.stderr + out.stderr };
  } else {
    r = env.podExec ? env.podExec(pod, container, command) : null;
    if (!r) return fail(`${notice}error: unable to upgrade connection: container not found ("${container}")`);
  }
  const err = notice + r.stderr + (r.exitCode !== 0 ? `command terminated with exit code ${r.exitCode}\n` : '');
  return { output: r.stdout, error: err || null, exitCode: r.exitCode };
}

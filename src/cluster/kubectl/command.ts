/**
 * The product's kubectl subset, parsed from one command line, producing exactly what kubectl
 * v1.33 prints on stdout and stderr. Shared by the UI's kubectl bar and the scenario runner's
 * `kubectl` step. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/cmd.go (the command tree, cobra's
 * "unknown command" with suggestions) and util/helpers.go (CheckErr); each command lives in
 * ./cmd/<name>.ts after its upstream pkg/cmd/<name>/<name>.go.
 */
import { Client } from '../client/clientset';
import type { APIServer } from '../apiserver/apiserver';
import { StatusError, kubectlErrorMessage } from '../api/errors';
import { GET_FLAGS, runGet } from './cmd/get';
import { DESCRIBE_FLAGS, runDescribe } from './cmd/describe';
import { LOGS_FLAGS, runLogs } from './cmd/logs';
import { EXEC_FLAGS, runExec } from './cmd/exec';
import { ROLLOUT_FLAGS, runRollout } from './cmd/rollout';
import { ANNOTATE_FLAGS, LABEL_FLAGS, SCALE_FLAGS, SET_IMAGE_FLAGS, runAnnotate, runLabel, runScale, runSetImage } from './cmd/mutate';
import { CREATE_FLAGS, runCreate } from './cmd/create';
import { RUN_FLAGS, runRun } from './cmd/run';
import { EXPOSE_FLAGS, runExpose } from './cmd/expose';
import { DELETE_FLAGS, runDelete } from './cmd/delete';
import { CORDON_FLAGS, DRAIN_FLAGS, runCordon, runDrain } from './cmd/drain';
import {
  API_RESOURCES_FLAGS,
  APPLY_FLAGS,
  EXPLAIN_FLAGS,
  TOP_FLAGS,
  VERSION_FLAGS,
  runApiResources,
  runApplyCmd,
  runExplain,
  runTop,
  runVersion,
} from './cmd/info';
import { PATCH_FLAGS, runPatch } from './cmd/patch';
import { AUTH_FLAGS, runAuth } from './cmd/auth';
import { impersonateUser } from '../apiserver/auth/impersonation';
import { tokenRequestUser } from '../apiserver/authentication/user';
import {
  KubectlError,
  editDistance,
  fail,
  parseFlags,
  splitArgs,
  type Ctx,
  type FlagSpec,
  type KubectlEnv,
  type KubectlResult,
} from './cmd/util';

export { splitArgs };
export type { KubectlResult, KubectlEnv };

interface Command {
  flags: FlagSpec;
  run(ctx: Ctx): KubectlResult;
}

const COMMANDS: Record<string, Command> = {
  get: { flags: GET_FLAGS, run: runGet },
  describe: { flags: DESCRIBE_FLAGS, run: runDescribe },
  logs: { flags: LOGS_FLAGS, run: runLogs },
  exec: { flags: EXEC_FLAGS, run: runExec },
  scale: { flags: SCALE_FLAGS, run: runScale },
  label: { flags: LABEL_FLAGS, run: runLabel },
  annotate: { flags: ANNOTATE_FLAGS, run: runAnnotate },
  create: { flags: CREATE_FLAGS, run: runCreate },
  run: { flags: RUN_FLAGS, run: runRun },
  expose: { flags: EXPOSE_FLAGS, run: runExpose },
  delete: { flags: DELETE_FLAGS, run: runDelete },
  cordon: { flags: CORDON_FLAGS, run: (c) => runCordon(c, true) },
  uncordon: { flags: CORDON_FLAGS, run: (c) => runCordon(c, false) },
  drain: { flags: DRAIN_FLAGS, run: runDrain },
  top: { flags: TOP_FLAGS, run: runTop },
  'api-resources': { flags: API_RESOURCES_FLAGS, run: runApiResources },
  version: { flags: VERSION_FLAGS, run: runVersion },
  explain: { flags: EXPLAIN_FLAGS, run: runExplain },
  apply: { flags: APPLY_FLAGS, run: runApplyCmd },
  patch: { flags: PATCH_FLAGS, run: runPatch },
  auth: { flags: AUTH_FLAGS, run: runAuth },
};

/** Every top-level command of kubectl v1.33 (for cobra's suggestions). */
const KUBECTL_COMMANDS = [
  'annotate',
  'api-resources',
  'api-versions',
  'apply',
  'attach',
  'auth',
  'autoscale',
  'certificate',
  'cluster-info',
  'completion',
  'config',
  'cordon',
  'cp',
  'create',
  'debug',
  'delete',
  'describe',
  'diff',
  'drain',
  'edit',
  'events',
  'exec',
  'explain',
  'expose',
  'get',
  'kustomize',
  'label',
  'logs',
  'options',
  'patch',
  'plugin',
  'port-forward',
  'proxy',
  'replace',
  'rollout',
  'run',
  'scale',
  'set',
  'taint',
  'top',
  'uncordon',
  'version',
  'wait',
];

/**
 * Commands whose writes `--dry-run` must suppress (create and apply handle it themselves). Their
 * stdout lines get kubectl's " (dry run)" / " (server dry run)" suffix (PrintFlags with a
 * DryRunStrategy in staging/src/k8s.io/kubectl/pkg/cmd/util/printing.go).
 */
const DRY_RUN_MUTATORS = new Set([
  'scale',
  'label',
  'annotate',
  'delete',
  'cordon',
  'uncordon',
  'drain',
  'set image',
  'rollout undo',
  'rollout restart',
  'rollout pause',
  'rollout resume',
]);

/**
 * A client whose writes change nothing: with `client` the write never leaves kubectl (the
 * object is returned as it would be sent); with `server` it is sent with dryRun=All, so the
 * apiserver runs admission and validation and stores nothing.
 */
function dryRunClient(client: Client, mode: 'client' | 'server'): Client {
  const api = client.api;
  const proxy = new Proxy(api, {
    get(target, prop, receiver) {
      if (prop === 'create' || prop === 'update') {
        return (user: unknown, info: unknown, ns: string, obj: Record<string, unknown>, opts: Record<string, unknown> = {}) =>
          mode === 'client'
            ? { object: obj, warnings: [] }
            : (target[prop] as (...a: unknown[]) => unknown).call(target, user, info, ns, obj, { ...opts, dryRun: true });
      }
      if (prop === 'delete') {
        return (
          user: unknown,
          info: { resource: string; group: string; namespaced: boolean },
          ns: string,
          name: string,
          opts: Record<string, unknown> = {},
        ) =>
          mode === 'client'
            ? target.get(user as never, info as never, ns, name, { quiet: true })
            : target.delete(user as never, info as never, ns, name, { ...opts, dryRun: true });
      }
      if (prop === 'bind')
        return () => {
          throw new Error('binding is not supported in dry run');
        };
      return Reflect.get(target, prop, receiver);
    },
  }) as APIServer;
  return new Client(proxy, client.user);
}

/**
 * A client that notes the deprecation warning of every deprecated API a command calls
 * (ResourceInfo.deprecated, api/deprecation.ts): kube-apiserver sends it with each
 * response, and kubectl's warning handler prints each distinct one once on stderr.
 */
function warningClient(client: Client, seen: Set<string>): Client {
  const api = client.api;
  const proxy = new Proxy(api, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function' || prop === 'constructor') return v;
      // `this` stays the caller's receiver (a dry-run proxy over this one keeps its own writes dry)
      return function (this: unknown, ...args: unknown[]) {
        const info = args[1] as { deprecated?: unknown } | undefined;
        if (info && typeof info === 'object' && typeof info.deprecated === 'string') seen.add(info.deprecated);
        return (v as (...a: unknown[]) => unknown).apply(this, args);
      };
    },
  }) as APIServer;
  return new Client(proxy, client.user);
}

/** stderr with the deprecation warnings first (kubectl prints them as the responses arrive), each once. */
function withWarnings(r: KubectlResult, seen: Set<string>): KubectlResult {
  const lines = [...seen].map((w) => `Warning: ${w}\n`).filter((l) => !(r.error ?? '').includes(l));
  return lines.length ? { ...r, error: `${lines.join('')}${r.error ?? ''}` } : r;
}

/** cobra's "Did you mean this?" (Levenshtein distance ≤ 2, or a prefix). */
function suggestions(verb: string): string[] {
  return KUBECTL_COMMANDS.filter((c) => editDistance(verb.toLowerCase(), c) <= 2 || c.startsWith(verb.toLowerCase()));
}

/**
 * Runs one kubectl command line (with or without the leading `kubectl`).
 * @param nowMs simulated now (for AGE columns)
 * @param env kubelets (logs), metrics (top), stdin (apply -f -)
 */
export function runKubectl(client: Client, line: string, nowMs: number, env: KubectlEnv = {}): KubectlResult {
  const seen = new Set<string>();
  return withWarnings(runKubectlLine(warningClient(client, seen), line, nowMs, env), seen);
}

function runKubectlLine(client: Client, line: string, nowMs: number, env: KubectlEnv): KubectlResult {
  const argv = splitArgs(line.trim());
  if (argv[0] === 'kubectl') argv.shift();
  // global flags may precede the command (kubectl -n kube-system get pods)
  const pre: string[] = [];
  while (argv.length && argv[0].startsWith('-')) {
    const a = argv.shift()!;
    pre.push(a);
    if (!a.includes('=') && /^(-n|--namespace|--context|--kubeconfig|--cluster|--user|-s|--server)$/.test(a) && argv.length)
      pre.push(argv.shift()!);
  }
  const verb = argv.shift();
  try {
    if (verb === undefined) return fail('error: no command given');
    let cmdName = verb;
    let cmd = COMMANDS[verb];
    if (verb === 'rollout') {
      const sub = argv[0];
      if (!sub || sub.startsWith('-')) return fail('error: required resource not specified\n');
      cmdName = `rollout ${argv.shift()}`;
      cmd = { flags: ROLLOUT_FLAGS, run: runRollout };
    } else if (verb === 'set') {
      const sub = argv.shift();
      if (sub !== 'image')
        return fail(sub ? `error: unknown command "${sub}" for "kubectl set"` : 'error: no subcommand given for "kubectl set"');
      cmdName = 'set image';
      cmd = { flags: SET_IMAGE_FLAGS, run: runSetImage };
    }
    if (!cmd) {
      const sug = suggestions(verb);
      const more = sug.length ? `\n\nDid you mean this?\n${sug.map((s) => `\t${s}\n`).join('')}` : '\n';
      if (KUBECTL_COMMANDS.includes(verb)) return fail(`error: "kubectl ${verb}" is not supported in kube-relay\n`);
      return fail(`error: unknown command "${verb}" for "kubectl"${more}`);
    }
    const { args, flags, multi, argsLenAtDash } = parseFlags([...pre, ...argv], cmd.flags, cmdName);
    // --token: the request's bearer token (a ServiceAccount token this apiserver issued); a token
    // it refuses is 401, which kubectl prints as "You must be logged in to the server (Unauthorized)"
    const bearer = flags.get('token');
    if (bearer) {
      const a = client.api.authenticateToken(bearer);
      if (!('user' in a)) return fail('error: You must be logged in to the server (Unauthorized)');
      client = new Client(client.api, tokenRequestUser(a.user, client.user.participant));
    }
    // --as / --as-group / --as-uid: rest.ImpersonationConfig; groups or a uid need a user
    const asUser = flags.get('as');
    const asGroups = multi.get('as-group') ?? [];
    const asUid = flags.get('as-uid');
    if (!asUser && !env.as && (asGroups.length || asUid))
      return fail('Error in configuration: requesting uid, groups or user-extra for kubectl without impersonating a user');
    if (asUser)
      client = new Client(client.api, impersonateUser(client.api.authorizer, client.user, { user: asUser, groups: asGroups, uid: asUid }));
    else if (env.as) {
      // the kubeconfig's impersonation; --as-group / --as-uid still override its pieces (clientcmd's flag overrides)
      const as = { ...env.as, ...(asGroups.length ? { groups: asGroups } : {}), ...(asUid ? { uid: asUid } : {}) };
      client = new Client(client.api, impersonateUser(client.api.authorizer, client.user, as));
    }
    // cli-runtime resource.Builder FilenameParam: every -f path is checked before anything else;
    // the kubectl bar has no file system, so only `-` (stdin: the editor) and URLs exist
    if ('filename' in cmd.flags) {
      for (const file of multi.get('filename') ?? (flags.has('filename') ? [flags.get('filename')!] : [])) {
        if (file !== '-' && !/^https?:\/\//.test(file)) return fail(`error: the path "${file}" does not exist`);
      }
    }
    const dry = flags.get('dry-run');
    if (dry !== undefined && !['client', 'server', 'none', 'true', 'false'].includes(dry)) {
      return fail(`error: Invalid dry-run value (${dry}). Must be "none", "server", or "client".\n`);
    }
    const dryMode = dry === 'client' || dry === 'true' ? 'client' : dry === 'server' ? 'server' : null;
    if (dryMode && DRY_RUN_MUTATORS.has(cmdName)) {
      const ctx: Ctx = {
        client: dryRunClient(client, dryMode),
        nowMs,
        env,
        args,
        flags,
        multi,
        namespace: flags.get('namespace') || 'default',
        cmd: cmdName,
        argsLenAtDash,
      };
      const r = cmd.run(ctx);
      const suffix = dryMode === 'client' ? ' (dry run)' : ' (server dry run)';
      // the suffix is the name printer's operation: -o name / yaml / json print none
      if (flags.get('output')) return r;
      return { ...r, output: r.output.replace(/([^\n])\n/g, `$1${suffix}\n`) };
    }
    const ctx: Ctx = {
      client,
      nowMs,
      env,
      args,
      flags,
      multi,
      namespace: flags.get('namespace') || 'default',
      cmd: cmdName,
      argsLenAtDash,
    };
    return cmd.run(ctx);
  } catch (e) {
    if (e instanceof KubectlError) return fail(e.message);
    if (e instanceof StatusError) return fail(kubectlErrorMessage(e));
    return fail(`error: ${(e as Error).message}`);
  }
}

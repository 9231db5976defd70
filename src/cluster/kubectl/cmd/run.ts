/**
 * `kubectl run NAME --image=IMAGE …`, as staging/src/k8s.io/kubectl/pkg/cmd/run/run.go with the
 * Pod built by pkg/generate/versioned/run.go (BasicPod): label `run: NAME` unless --labels,
 * one container named NAME with `resources: {}`, `dnsPolicy: ClusterFirst`, the --restart
 * policy (default Always); arguments after NAME are the container's args, or its command with
 * --command. Prints `pod/NAME created` (or " (dry run)" / " (server dry run)").
 */
import type { KObject } from '../../api/types';
import { toJSON, toYAML } from './output';
import { fail, resolveType, seeHelp, tryStatus, typeName, type Ctx, type FlagSpec, type KubectlResult } from './util';

/** Flags of `kubectl run`. */
export const RUN_FLAGS: FlagSpec = {
  image: {},
  port: {},
  labels: { short: 'l' },
  env: {},
  restart: {},
  command: { bool: true },
  'image-pull-policy': {},
  'dry-run': {},
  output: { short: 'o' },
  'field-manager': {},
};

/** `k=v,k2=v2` → map, or kubectl's error (generate.ParseLabels). */
export function parseLabelSpec(spec: string): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const part of spec.split(',')) {
    const kv = part.split('=');
    if (kv.length !== 2) return `error: unexpected label spec: ${part}`;
    out[kv[0]] = kv[1];
  }
  return out;
}

/** --env K=V… → EnvVar list (run.go parseEnvs). */
function parseEnvs(envs: string[]): { name: string; value: string }[] | string {
  const out: { name: string; value: string }[] = [];
  for (const e of envs) {
    const i = e.indexOf('=');
    if (i <= 0 || !/^[-._a-zA-Z][-._a-zA-Z0-9]*$/.test(e.slice(0, i))) return `error: invalid env: ${e}`;
    out.push({ name: e.slice(0, i), value: e.slice(i + 1) });
  }
  return out;
}

/** Builds the Pod BasicPod generates, fields in Go struct order (for `-o json`). */
function buildPod(ctx: Ctx, name: string, rest: string[]): KObject | string {
  const image = ctx.flags.get('image')!;
  const restart = ctx.flags.get('restart') ?? 'Always';
  if (!['Always', 'OnFailure', 'Never'].includes(restart)) return `error: invalid restart policy: ${restart}\n${seeHelp('run')}`;
  const labelSpec = ctx.flags.get('labels');
  const labels = labelSpec ? parseLabelSpec(labelSpec) : { run: name };
  if (typeof labels === 'string') return labels;
  const port = ctx.flags.get('port');
  if (port !== undefined && port !== '' && !/^[+-]?\d+$/.test(port)) return `error: strconv.Atoi: parsing "${port}": invalid syntax`;
  const env = parseEnvs(ctx.multi.get('env') ?? []);
  if (typeof env === 'string') return env;
  const container: Record<string, unknown> = { name, image };
  if (rest.length) container[ctx.flags.get('command') === 'true' ? 'command' : 'args'] = rest;
  if (port !== undefined && port !== '' && Number(port) !== -1) container.ports = [{ containerPort: Number(port) }];
  if (env.length) container.env = env;
  container.resources = {};
  if (ctx.flags.get('image-pull-policy')) container.imagePullPolicy = ctx.flags.get('image-pull-policy');
  const metadata: Record<string, unknown> = { name };
  if (ctx.flags.has('namespace')) metadata.namespace = ctx.namespace;
  metadata.creationTimestamp = null;
  metadata.labels = labels;
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata,
    spec: { containers: [container], restartPolicy: restart, dnsPolicy: 'ClusterFirst' },
    status: {},
  } as unknown as KObject;
}

/** Runs `kubectl run NAME --image=IMAGE [flags] [-- ARGS…]`. */
export function runRun(ctx: Ctx): KubectlResult {
  // cobra checks required flags before the command runs
  if (!ctx.flags.get('image')) return fail('error: required flag(s) "image" not set');
  const [name, ...rest] = ctx.args;
  if (!name) return fail(`error: NAME is required for run\n${seeHelp('run')}`);
  const pod = buildPod(ctx, name, rest);
  if (typeof pod === 'string') return fail(pod);
  return printCreated(ctx, pod, 'created', 'kubectl-run');
}

/**
 * What `-o json` prints for an object kubectl generated itself: encoding/json over the Go
 * struct, so fields in struct order (the object is built in that order), four-space indent.
 */
export function goJSON(obj: unknown): string {
  return JSON.stringify(obj, null, 4).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`) + '\n';
}

/**
 * Sends (or, with --dry-run=client, only prints) an object kubectl generated, as run.go and
 * expose.go do: `-o yaml|json|name`, else `<type>/<name> <verb>` with kubectl's dry-run suffix.
 * @param verb "created" (run) or "exposed" (expose)
 */
export function printCreated(ctx: Ctx, obj: KObject, verb: string, fieldManager: string): KubectlResult {
  const dry = ctx.flags.get('dry-run');
  const out = ctx.flags.get('output');
  const info = resolveType(ctx.client, obj.kind);
  const id = `${typeName(info)}/${obj.metadata.name}`;
  if (dry === 'client' || dry === 'true') {
    if (out === 'yaml') return { output: toYAML(obj), error: null, exitCode: 0 };
    if (out === 'json') return { output: goJSON(obj), error: null, exitCode: 0 };
    return { output: out === 'name' ? `${id}\n` : `${id} ${verb} (dry run)\n`, error: null, exitCode: 0 };
  }
  const input = JSON.parse(JSON.stringify(obj));
  delete input.status;
  delete input.metadata.creationTimestamp;
  input.metadata.namespace = ctx.namespace;
  const r = tryStatus(() =>
    ctx.client.resource(info.group, info.resource).create(ctx.namespace, input, {
      dryRun: dry === 'server',
      fieldManager,
      summary: `${fieldManager.replace('kubectl-', '')} ${obj.kind} ${obj.metadata.name}`,
    }),
  );
  if (r.error) return fail(r.error);
  if (out === 'yaml') return { output: toYAML(r.value), error: null, exitCode: 0 };
  if (out === 'json') return { output: toJSON(r.value), error: null, exitCode: 0 };
  if (out === 'name') return { output: `${id}\n`, error: null, exitCode: 0 };
  return { output: `${id} ${verb}${dry === 'server' ? ' (server dry run)' : ''}\n`, error: null, exitCode: 0 };
}

/**
 * `kubectl create token SERVICE_ACCOUNT_NAME`, as staging/src/k8s.io/kubectl/pkg/cmd/create/create_token.go
 * (TokenOptions Complete, Validate, Run): `--audience` (repeatable), `--duration` (a Go duration;
 * 0 or unset: the server's default), `--bound-object-kind Pod|Secret` with `--bound-object-name`
 * and `--bound-object-uid`, `-o yaml|json|name`. Without `-o` it prints the token and a newline
 * (kubectl on a terminal). Errors are Validate's texts (`--duration must be greater than or
 * equal to 0`, `supported --bound-object-kind values are Pod, Secret`, …) and the server's,
 * wrapped as `failed to create token: …`.
 */
import { StatusError } from '../../api/errors';
import type { TokenRequest } from '../../apiserver/token-request';
import { parseGoDurationNs } from '../../util/duration';
import { toJSON, toYAML } from './output';
import { fail, ok, seeHelp, type Ctx, type KubectlResult } from './util';

/** create_token.go boundObjectKindToAPIVersions (Node only with KUBECTL_NODE_BOUND_TOKENS=true, which the engine's kubectl has not). */
const BOUND_OBJECT_KINDS = new Map([
  ['Pod', 'v1'],
  ['Secret', 'v1'],
]);

/** genericclioptions.PrintFlags' formats for a create command, as kubectl lists them. */
const PRINT_FORMATS = 'go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml';

/** Runs `kubectl create token NAME` (`names`: the arguments after `token`). */
export function runCreateToken(ctx: Ctx, names: string[]): KubectlResult {
  if (names.length !== 1) return fail(`error: exactly one NAME is required, got ${names.length}\n${seeHelp('create token')}`);
  const [name] = names;
  let durationNs = 0n;
  const d = ctx.flags.get('duration');
  if (d !== undefined) {
    try {
      durationNs = parseGoDurationNs(d);
    } catch (e) {
      return fail(
        `error: invalid argument ${JSON.stringify(d)} for "--duration" flag: ${(e as Error).message}\nSee 'kubectl create token --help' for usage.`,
      );
    }
  }
  const audiences = ctx.multi.get('audience') ?? [];
  const kind = ctx.flags.get('bound-object-kind') ?? '';
  const boundName = ctx.flags.get('bound-object-name') ?? '';
  const boundUID = ctx.flags.get('bound-object-uid') ?? '';
  // Complete: the printer (json, yaml and name here; the template printers are not in the engine)
  const out = ctx.flags.get('output');
  if (out !== undefined && out !== 'json' && out !== 'yaml' && out !== 'name')
    return fail(`error: unable to match a printer suitable for the output format "${out}", allowed formats are: ${PRINT_FORMATS}`);
  // Validate, in its order
  if (!ctx.namespace) return fail('error: --namespace is required');
  if (durationNs < 0n) return fail('error: --duration must be greater than or equal to 0');
  if (durationNs % 1_000_000_000n !== 0n) return fail('error: --duration cannot be expressed in units less than seconds');
  if (audiences.some((a) => a === '')) return fail('error: --audience must not be an empty string');
  if (!kind) {
    if (boundName) return fail('error: --bound-object-name can only be set if --bound-object-kind is provided');
    if (boundUID) return fail('error: --bound-object-uid can only be set if --bound-object-kind is provided');
  } else {
    if (!BOUND_OBJECT_KINDS.has(kind))
      return fail(`error: supported --bound-object-kind values are ${[...BOUND_OBJECT_KINDS.keys()].sort().join(', ')}`);
    if (!boundName) return fail('error: --bound-object-name is required if --bound-object-kind is provided');
  }
  // Run
  const spec: NonNullable<TokenRequest['spec']> = {};
  if (audiences.length) spec.audiences = audiences;
  if (durationNs > 0n) spec.expirationSeconds = Number(durationNs / 1_000_000_000n);
  if (kind)
    spec.boundObjectRef = { kind, apiVersion: BOUND_OBJECT_KINDS.get(kind), name: boundName, ...(boundUID ? { uid: boundUID } : {}) };
  let resp: TokenRequest;
  try {
    resp = ctx.client.createToken(ctx.namespace, name, { metadata: {}, spec });
  } catch (e) {
    if (e instanceof StatusError) return fail(`error: failed to create token: ${e.status.message}`);
    throw e;
  }
  const token = resp.status?.token ?? '';
  if (!token) return fail('error: failed to create token: no token in server response');
  if (out === 'yaml') return ok(toYAML(resp));
  if (out === 'json') return ok(toJSON(resp));
  if (out === 'name') return ok(`tokenrequest.authentication.k8s.io/${name}\n`);
  return ok(`${token}\n`);
}

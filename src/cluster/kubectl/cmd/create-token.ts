/**
 * `kubectl create token SERVICE_ACCOUNT_NAME`, as staging/src/k8s.io/kubectl/pkg/cmd/create/create_token.go
 * (TokenOptions Complete, Validate, Run): `--audience` (repeatable), `--duration` (a Go duration;
 * 0 or unset: the server's default), `--bound-object-kind Pod|Secret|Node` with `--bound-object-name`
 * and `--bound-object-uid`, `-o yaml|json|name` (`-o ''`: the name printer, `… created`).
 * Without `-o` it prints the token and a newline (kubectl on a terminal). Errors are Validate's texts (`--duration must be greater than or
 * equal to 0`, `supported --bound-object-kind values are Pod, Secret`, …) and the server's,
 * wrapped as `failed to create token: …`.
 */
import { StatusError } from '../../api/errors';
import type { TokenRequest } from '../../apiserver/token-request';
import { parseGoDurationNs } from '../../util/duration';
import { toYAML } from './output';
import { fail, ok, seeHelp, type Ctx, type KubectlResult } from './util';

/** create_token.go boundObjectKindToAPIVersions (Node included, as kubectl v1.32+ lists it). */
const BOUND_OBJECT_KINDS = new Map([
  ['Pod', 'v1'],
  ['Secret', 'v1'],
  ['Node', 'v1'],
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
  // `-o ''` is a given output flag with no format: NamePrintFlags.ToPrinter takes "" (the
  // name printer with its operation, `… created`), and Run prints the token only without -o
  const out = ctx.flags.get('output');
  if (out !== undefined && out !== '' && out !== 'json' && out !== 'yaml' && out !== 'name')
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
  if (out === undefined) return ok(`${token}\n`);
  if (out === 'name') return ok(`tokenrequest.authentication.k8s.io/${name}\n`);
  if (out === '') return ok(`tokenrequest.authentication.k8s.io/${name} created\n`);
  const typed = goOrdered(resp);
  return ok(out === 'yaml' ? toYAML(typed) : goJSON(typed));
}

/**
 * The TokenRequest as kubectl holds it (authentication/v1 types.go, re-marshalled by the
 * printers): Go field order (the JSON printer keeps it; the YAML printer sorts keys), and
 * `boundObjectRef` without omitempty, so `null` when the request bound nothing.
 */
function goOrdered(r: TokenRequest): Record<string, unknown> {
  const m = r.metadata ?? {};
  const spec = r.spec ?? {};
  const ref = spec.boundObjectRef;
  return {
    kind: r.kind,
    apiVersion: r.apiVersion,
    metadata: { name: m.name, namespace: m.namespace, creationTimestamp: m.creationTimestamp ?? null },
    spec: {
      ...(spec.audiences ? { audiences: spec.audiences } : {}),
      ...(spec.expirationSeconds !== undefined ? { expirationSeconds: spec.expirationSeconds } : {}),
      boundObjectRef: ref
        ? { kind: ref.kind || undefined, apiVersion: ref.apiVersion || undefined, name: ref.name || undefined, uid: ref.uid || undefined }
        : null,
    },
    status: { token: r.status?.token ?? '', expirationTimestamp: r.status?.expirationTimestamp ?? null },
  };
}

/** printers.JSONPrinter of a typed object: json.MarshalIndent with 4 spaces, fields in Go order, HTML characters escaped. */
function goJSON(obj: unknown): string {
  return JSON.stringify(obj, null, 4).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`) + '\n';
}

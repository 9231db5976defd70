/**
 * registry.k8s.io/ingress-nginx/kube-webhook-certgen, simulated: the program ingress-nginx's
 * admission Jobs run (kubernetes/ingress-nginx images/kube-webhook-certgen/rootfs: cmd/root.go,
 * cmd/create.go, cmd/patch.go, pkg/k8s/k8s.go, pkg/certs/certs.go; client-go v0.32).
 *
 * - `create --host=H1,H2 --namespace=NS --secret-name=S [--cert-name=cert] [--key-name=key]`:
 *   GETs Secret NS/S; when it is not found logs `no secret found` (with the error) and
 *   `creating new secret`, generates a CA and a serving certificate for the hosts and CREATEs
 *   the Secret with data keys `ca`, `cert`, `key` (no type: the apiserver defaults Opaque);
 *   when it exists logs `secret already exists`. Exit 0.
 * - `patch --webhook-name=W --namespace=NS --secret-name=S [--patch-validating=true]
 *   [--patch-mutating=true] [--patch-failure-policy=Fail|Ignore]`: reads `ca` from the Secret
 *   (fatal `no secret with 'S' in 'NS'` when missing — the Job's Pod then restarts, as the
 *   patch Pod often does once on a real cluster when it runs before `create` finished), GETs
 *   the Validating/MutatingWebhookConfiguration W, sets every webhook's clientConfig.caBundle
 *   (and failurePolicy) and UPDATEs it. Exit 0.
 *   Kept from upstream: prePatchCommand's `case "Ignore":` has no body, so only `Fail` is
 *   ever written as the failure policy.
 * Logs are logrus' JSONFormatter (keys sorted, `source` from the onrik filename hook, time
 * RFC 3339) on stdout after klog's in-cluster warning on stderr; `log.Fatal*` exits 1.
 *
 * The certificates are NOT real crypto: PEM blocks of the sizes certs.go produces (ECDSA P-256:
 * a ~400-byte DER certificate, a 121-byte `EC PRIVATE KEY`) filled with bytes from a seeded
 * RNG (the Pod's uid), so the same cluster seed gives the same Secret.
 *
 * Durations are simulated ms.
 */
import { base64Std } from '../../util/base64';
import { Rng } from '../../sim/rng';
import { StatusError } from '../../api/errors';
import type { KObject } from '../../api/types';
import type { Sleep } from '../shell';
import type { InCluster } from './in-cluster';

/** Image references that run kube-webhook-certgen. */
export const CERTGEN_IMAGE = /(^|\/)kube-webhook-certgen(:|@|$)/;

/** Go binary start + rest.InClusterConfig + clientset construction. */
const STARTUP_MS = 120;
/** One request to the apiserver, round trip. */
const REQUEST_MS = 8;
/** certs.GenerateCerts: two P-256 keys and two signatures. */
const KEYGEN_MS = 15;

/** What the program writes: stdout (logrus) and stderr (klog). */
export interface CertgenIO {
  out: (s: string) => void;
  err: (s: string) => void;
}

class Fatal {
  constructor(readonly code: number) {}
}

/** pflag: `--name=value`, `--name value`, bare booleans. */
function parseFlags(args: string[], bools: Set<string>): { flags: Map<string, string>; positional: string[]; error?: string } {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
    if (eq >= 0) flags.set(name, a.slice(eq + 1));
    else if (bools.has(name)) flags.set(name, 'true');
    else if (i + 1 < args.length) flags.set(name, args[++i]);
    else return { flags, positional, error: `flag needs an argument: --${name}` };
  }
  return { flags, positional };
}

/** Go's json.Marshal string escaping (HTML-safe, as logrus' JSONFormatter encodes). */
function goJSON(s: string): string {
  return JSON.stringify(s).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/** RFC 3339 to the second, UTC (logrus' default TimestampFormat). */
function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** klog's header: `W0101 00:00:02.123000       1 file:line] `. */
function klogHeader(sev: string, ms: number, file: string): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${sev}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}000 ${String(1).padStart(7)} ${file}] `;
}

/** Standard base64 of bytes. */
export const base64Bytes = base64Std;

/** Standard base64 of an ASCII text (a PEM file). */
function base64Ascii(text: string): string {
  return base64Bytes(Array.from(text, (c) => c.charCodeAt(0) & 255));
}

/** encoding/pem.EncodeToMemory: base64 in 64-character lines. */
function pem(type: string, der: number[]): string {
  const b = base64Bytes(der);
  const lines = b.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${type}-----\n${lines.join('\n')}\n-----END ${type}-----\n`;
}

/** DER-looking bytes: a SEQUENCE header then seeded filler (not a parseable certificate). */
function derLike(rng: Rng, length: number): number[] {
  const body = Array.from({ length: length - 4 }, () => rng.intn(256));
  return [0x30, 0x82, (length - 4) >> 8, (length - 4) & 255, ...body];
}

/** PEM texts of certs.GenerateCerts(host): CA certificate, serving certificate, EC key (simulated bytes). */
export function generateCerts(host: string, seed: number): { ca: string; cert: string; key: string } {
  const rng = new Rng(seed);
  const ca = pem('CERTIFICATE', derLike(rng, 396 + rng.intn(4)));
  // the leaf carries one SAN per host (DNS name or IP) besides the same fields
  const san = host.split(',').reduce((n, h) => n + h.length + 2, 0);
  const key = pem('EC PRIVATE KEY', derLike(rng, 121));
  const cert = pem('CERTIFICATE', derLike(rng, 420 + san + rng.intn(4)));
  return { ca, cert, key };
}

/**
 * Runs `kube-webhook-certgen ARGS` as PID 1 of its container; yields the sleeps between its
 * steps and returns the exit code.
 */
export function* runCertgen(args: string[], ic: InCluster, now: () => number, io: CertgenIO): Generator<Sleep, number> {
  const log = (level: string, msg: string, source: string, err?: string): void => {
    const e = err !== undefined ? `"err":${goJSON(err)},` : '';
    io.out(`{${e}"level":${goJSON(level)},"msg":${goJSON(msg)},"source":${goJSON(source)},"time":${goJSON(rfc3339(now()))}}\n`);
  };
  const fatal = (msg: string, source: string, err?: string): never => {
    log('fatal', msg, source, err);
    throw new Fatal(1);
  };
  const sleep = (ms: number): Sleep => ({ ms, inLoop: false });
  const [cmd, ...rest] = args;
  if (cmd !== 'create' && cmd !== 'patch') {
    if (cmd === undefined || cmd.startsWith('-')) {
      // rootCommand: cmd.Help(); os.Exit(1)
      io.out(
        'Use this to create a ca and signed certificates and patch admission webhooks to allow for quick\n\t           installation and configuration of validating and admission webhooks.\n\nUsage:\n  kube-webhook-certgen [flags]\n  kube-webhook-certgen [command]\n',
      );
      return 1;
    }
    io.err(`Error: unknown command "${cmd}" for "kube-webhook-certgen"\nRun 'kube-webhook-certgen --help' for usage.\n`);
    return 1;
  }
  const { flags, error } = parseFlags(rest, new Set(['patch-validating', 'patch-mutating']));
  if (error) {
    io.err(`Error: ${error}\n`);
    return 1;
  }
  const required = cmd === 'create' ? ['host', 'secret-name', 'namespace'] : ['secret-name', 'namespace', 'webhook-name'];
  const missing = required.filter((f) => !flags.has(f));
  if (missing.length) {
    io.err(`Error: required flag(s) ${missing.map((m) => `"${m}"`).join(', ')} not set\n`);
    return 1;
  }
  const secretName = flags.get('secret-name')!;
  const namespace = flags.get('namespace')!;

  yield sleep(STARTUP_MS);
  // clientcmd.BuildConfigFromFlags("", "") falls back to the in-cluster config, with klog's warning
  io.err(
    `${klogHeader('W', now(), 'client_config.go:659')}Neither --kubeconfig nor --master was specified.  Using the inClusterConfig.  This might not work.\n`,
  );
  const client = ic.client();
  const secrets = client.resource('', 'secrets');

  try {
    /** k8s.GetCaFromSecret: the `ca` bytes (base64 as stored), or null when the Secret is not found. */
    const getCa = function* (): Generator<Sleep, string | null> {
      yield sleep(REQUEST_MS);
      let secret: KObject;
      try {
        secret = secrets.get(namespace, secretName);
      } catch (e) {
        if (e instanceof StatusError && e.code === 404) {
          log('info', 'no secret found', 'k8s/k8s.go:229', e.message);
          return null;
        }
        return fatal('error getting secret', 'k8s/k8s.go:232', e instanceof Error ? e.message : String(e));
      }
      const ca = (secret.data as Record<string, string> | undefined)?.ca;
      if (!ca) return fatal("got secret, but it did not contain a 'ca' key", 'k8s/k8s.go:237');
      return ca;
    };

    if (cmd === 'create') {
      const ca = yield* getCa();
      if (ca !== null) {
        log('info', 'secret already exists', 'cmd/create.go:33');
        return 0;
      }
      log('info', 'creating new secret', 'cmd/create.go:28');
      yield sleep(KEYGEN_MS);
      const certs = generateCerts(flags.get('host')!, ic.seed);
      yield sleep(REQUEST_MS);
      try {
        secrets.create(
          namespace,
          {
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: secretName },
            data: {
              ca: base64Ascii(certs.ca),
              [flags.get('cert-name') ?? 'cert']: base64Ascii(certs.cert),
              [flags.get('key-name') ?? 'key']: base64Ascii(certs.key),
            },
          } as KObject,
          {
            fieldManager: 'kube-webhook-certgen',
            summary: `create Secret ${namespace}/${secretName} (CA + serving certificate for ${flags.get('host')})`,
          },
        );
      } catch (e) {
        fatal('failed creating secret', 'k8s/k8s.go:255', e instanceof Error ? e.message : String(e));
      }
      return 0;
    }

    // patch: prePatchCommand
    const patchValidating = (flags.get('patch-validating') ?? 'true') === 'true';
    const patchMutating = (flags.get('patch-mutating') ?? 'true') === 'true';
    if (!patchMutating && !patchValidating)
      fatal(
        'patch-validating=false, patch-mutating=false. You must patch at least one kind of webhook, otherwise this command is a no-op',
        'cmd/patch.go:24',
      );
    const policyFlag = flags.get('patch-failure-policy') ?? '';
    if (policyFlag !== '' && policyFlag !== 'Ignore' && policyFlag !== 'Fail')
      fatal(`patch-failure-policy ${policyFlag} is not valid`, 'cmd/patch.go:34');
    const failurePolicy = policyFlag === 'Fail' ? 'Fail' : '';
    const ca = yield* getCa();
    if (ca === null) fatal(`no secret with '${secretName}' in '${namespace}'`, 'cmd/patch.go:47');
    const webhook = flags.get('webhook-name')!;
    log(
      'info',
      `patching webhook configurations '${webhook}' mutating=${patchMutating}, validating=${patchValidating}, failurePolicy=${failurePolicy}`,
      'k8s/k8s.go:118',
    );
    const kinds: [boolean, string, string][] = [
      [patchValidating, 'validatingwebhookconfigurations', 'validating'],
      [patchMutating, 'mutatingwebhookconfigurations', 'mutating'],
    ];
    for (const [on, resource, word] of kinds) {
      if (!on) continue;
      const rc = client.resource('admissionregistration.k8s.io', resource);
      yield sleep(REQUEST_MS);
      let hook: KObject;
      try {
        hook = rc.get('', webhook);
      } catch (e) {
        return fatal(`failed getting ${word} webhook`, 'cmd/patch.go:64', e instanceof Error ? e.message : String(e));
      }
      const next = {
        ...hook,
        webhooks: ((hook.webhooks ?? []) as Record<string, unknown>[]).map((h) => ({
          ...h,
          clientConfig: { ...(h.clientConfig as object), caBundle: ca },
          ...(failurePolicy ? { failurePolicy } : {}),
        })),
      } as KObject;
      yield sleep(REQUEST_MS);
      try {
        rc.update(next, {
          fieldManager: 'kube-webhook-certgen',
          summary: `update ${hook.kind} ${webhook}: caBundle from Secret ${namespace}/${secretName}${failurePolicy ? `, failurePolicy ${failurePolicy}` : ''}`,
        });
      } catch (e) {
        fatal(`failed patching ${word} webhook`, 'cmd/patch.go:64', e instanceof Error ? e.message : String(e));
      }
    }
    log('info', 'Patched hook(s)', 'k8s/k8s.go:138');
    return 0;
  } catch (e) {
    if (e instanceof Fatal) return e.code;
    throw e;
  }
}

/**
 * `npm run apiserver -- [--port 6443] [--bind-address 127.0.0.1] [--kubeconfig kube-relay.kubeconfig]
 * [--speed 1] [--scenario FILE] [--cors-allowed-origins REGEX,…]` (docs/architecture.md#the-http-server): runs the engine
 * in Node and serves the Kubernetes REST API on 127.0.0.1:PORT — TLS with a per-start
 * self-signed certificate, and plain HTTP on the same port, both requiring the per-start bearer
 * token (src/server/server.ts, auth.ts). Prints the https URL on its first line, writes the
 * kubeconfig (context kube-relay, user kubectl, with the token and the certificate; mode 0600),
 * and runs until SIGINT/SIGTERM, which stop it within a second. With --scenario the scenario's
 * cluster is built and its steps are played in fast-forward before serving. The simulated clock
 * starts at the wall-clock second the server starts (src/server/epoch.ts).
 *
 * Every flag is checked first: a wrong one prints one line `error: …` and exits 2 (no stack).
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { Cluster } from '../cluster/cluster';
import { parseScenario, ScenarioError } from '../cluster/scenario/scenario';
import { playContext, playStep } from '../cluster/scenario/play';
import { startServer } from '../server/server';
import { kubeconfigYAML } from '../server/kubeconfig';
import { compileAllowedOrigins } from '../server/filters';
import { kustomizeDir } from './kustomize';
import { isMainModule } from './args';
import { buildAnchored, serverEpochMs } from '../server/epoch';

const USAGE =
  'usage: npm run apiserver -- [--port 6443] [--bind-address 127.0.0.1] [--kubeconfig kube-relay.kubeconfig] [--speed 1] [--scenario FILE] [--cors-allowed-origins REGEX,...]';
/** The highest --speed: simulated ms per wall ms the engine keeps up with (the clock loop yields beyond that). */
export const MAX_SPEED = 1000;

/** The parsed flags of `npm run apiserver`. */
export interface ApiserverFlags {
  port: number;
  bindAddress: string;
  kubeconfig: string;
  speed: number;
  scenario?: string;
  corsAllowedOrigins: string[];
}

/** A flag error: printed as one line, exit code 2. */
export class FlagError extends Error {}

const invalid = (value: string, flag: string, why: string) =>
  new FlagError(`invalid argument ${JSON.stringify(value)} for "${flag}" flag: ${why}`);

/**
 * Parses and validates argv (pflag style: `--flag value` or `--flag=value`).
 * @throws FlagError with the one-line message.
 */
export function parseApiserverFlags(argv: string[]): ApiserverFlags | 'help' {
  const f: ApiserverFlags = { port: 6443, bindAddress: '127.0.0.1', kubeconfig: 'kube-relay.kubeconfig', speed: 1, corsAllowedOrigins: [] };
  const known = new Set(['--port', '--bind-address', '--kubeconfig', '--speed', '--scenario', '--cors-allowed-origins']);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return 'help';
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (!known.has(flag)) throw new FlagError(arg.startsWith('-') ? `unknown flag: ${flag}` : `unexpected argument ${JSON.stringify(arg)}`);
    let value: string;
    if (eq > 0 && arg.startsWith('--')) value = arg.slice(eq + 1);
    else {
      if (i + 1 >= argv.length) throw new FlagError(`flag needs an argument: ${flag}`);
      value = argv[++i];
    }
    switch (flag) {
      case '--port': {
        if (!/^\d+$/.test(value) || Number(value) > 65535)
          throw invalid(value, flag, 'must be an integer from 0 to 65535 (0 picks a free port)');
        f.port = Number(value);
        break;
      }
      case '--speed': {
        const n = Number(value);
        if (!value.trim() || !Number.isFinite(n) || n <= 0 || n > MAX_SPEED)
          throw invalid(value, flag, `must be a number greater than 0 and at most ${MAX_SPEED} (simulated ms per wall ms)`);
        f.speed = n;
        break;
      }
      case '--bind-address':
        if (isIP(value) === 0) throw invalid(value, flag, 'must be an IP address, e.g. 127.0.0.1');
        f.bindAddress = value;
        break;
      case '--kubeconfig': {
        if (!value) throw invalid(value, flag, 'must be a file path');
        const dir = dirname(resolve(value));
        if (!existsSync(dir) || !statSync(dir).isDirectory()) throw invalid(value, flag, `folder ${JSON.stringify(dir)} does not exist`);
        if (existsSync(value) && statSync(value).isDirectory()) throw invalid(value, flag, 'is a folder, not a file');
        f.kubeconfig = value;
        break;
      }
      case '--scenario':
        if (!existsSync(value) || !statSync(value).isFile()) throw invalid(value, flag, 'no such file');
        f.scenario = value;
        break;
      case '--cors-allowed-origins':
        f.corsAllowedOrigins = value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        try {
          compileAllowedOrigins(f.corsAllowedOrigins);
        } catch (err) {
          throw new FlagError((err as Error).message);
        }
        break;
    }
  }
  return f;
}

function fail(message: string, code: number): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(code);
}

async function main(): Promise<void> {
  let flags: ApiserverFlags | 'help';
  try {
    flags = parseApiserverFlags(process.argv.slice(2));
  } catch (err) {
    if (err instanceof FlagError) fail(err.message, 2);
    throw err;
  }
  if (flags === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const { port, bindAddress, kubeconfig, speed, scenario, corsAllowedOrigins } = flags;
  // The simulated clock starts at the wall-clock second the server starts (src/server/epoch.ts), so
  // real kubectl's client-side ages (describe, get -w) read like a real cluster's.
  const wallStartMs = Date.now();
  let cluster: Cluster;
  if (scenario) {
    try {
      const sc = parseScenario(parse(readFileSync(scenario, 'utf8'), { maxAliasCount: 100 }));
      const base = dirname(resolve(scenario));
      cluster = buildAnchored(wallStartMs, (startMs) => {
        const c = new Cluster({
          seed: sc.cluster.seed,
          nodes: sc.cluster.nodes,
          images: sc.cluster.images,
          controlPlane: sc.cluster.controlPlane,
          startMs,
        });
        const ctx = playContext({
          readFile: (p) => readFileSync(resolve(base, p), 'utf8'),
          kustomize: (p) => kustomizeDir(resolve(base, p)),
        });
        sc.steps.forEach((s, i) => playStep(c, s, i, ctx));
        return c;
      });
    } catch (err) {
      fail(err instanceof ScenarioError ? err.message : err instanceof Error ? err.message : String(err), 1);
    }
  } else cluster = buildAnchored(wallStartMs, (startMs) => new Cluster({ startMs }));

  let running;
  try {
    // the clock catches up the time spent building (wall time since wallStartMs × speed) at its first tick
    running = await startServer(cluster, { port, host: bindAddress, speed, wallStartMs: serverEpochMs(wallStartMs), corsAllowedOrigins });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    fail(
      e.code === 'EADDRINUSE'
        ? `listen tcp ${bindAddress}:${port}: bind: address already in use`
        : e.code === 'EADDRNOTAVAIL'
          ? `listen tcp ${bindAddress}:${port}: bind: cannot assign requested address`
          : e.message,
      1,
    );
  }
  const srv = running;
  try {
    writeFileSync(kubeconfig, kubeconfigYAML(srv.httpsUrl, { token: srv.token, caPem: srv.caPem }), { mode: 0o600 });
  } catch (err) {
    await srv.close();
    fail(`cannot write the kubeconfig ${JSON.stringify(kubeconfig)}: ${(err as Error).message}`, 1);
  }
  process.stdout.write(`${srv.httpsUrl}\n`);
  process.stdout.write(
    `kubeconfig written to ${kubeconfig} (context kube-relay, bearer token of this run); try: KUBECONFIG=${kubeconfig} kubectl get nodes\n`,
  );
  if (bindAddress !== '127.0.0.1' && bindAddress !== '::1')
    process.stderr.write(
      `warning: listening on ${bindAddress}, not only loopback: anyone who can reach it and has the token controls this cluster\n`,
    );
  const stop = () => {
    // close, and exit within a second even if a connection holds on
    setTimeout(() => process.exit(0), 900).unref();
    void srv.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (isMainModule(import.meta.url)) await main();

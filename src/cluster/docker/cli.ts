/**
 * The docker CLI subset the demo needs, against one machine's engine chosen with
 * `-H ssh://NODE` (docker's own way to talk to a remote host; docker/cli
 * cli/flags/options.go `--host`):
 *
 *   docker -H ssh://node-1 run -d --restart=always --name web nginx
 *   docker -H ssh://node-1 ps [-a]
 *
 * Output follows docker/cli: `run -d` prints the full container ID; `ps` prints the
 * cli/command/formatter/container.go table (ID cut to 12, COMMAND quoted and cut to 20
 * with "…", CREATED and STATUS in docker/go-units HumanDuration words).
 */
import type { KubectlResult } from '../kubectl/command';
import { DockerError, RESTART_POLICIES, type RestartPolicy, type StandaloneContainer, type StandaloneContainers } from './standalone';

const NO_DAEMON = 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n';

/** docker/go-units HumanDuration (duration.go). */
export function dockerHumanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 1) return 'Less than a second';
  if (seconds === 1) return '1 second';
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Math.floor(seconds / 60);
  if (minutes === 1) return 'About a minute';
  if (minutes < 60) return `${minutes} minutes`;
  const hours = Math.round(seconds / 3600);
  if (hours === 1) return 'About an hour';
  if (hours < 48) return `${hours} hours`;
  if (hours < 24 * 7 * 2) return `${Math.floor(hours / 24)} days`;
  return `${Math.floor(hours / 24 / 7)} weeks`;
}

/** The entrypoint docker would show for a few well-known images; others print as "…". */
function command(image: string): string {
  const repo = image.split(/[:@]/)[0].split('/').pop();
  const known: Record<string, string> = {
    nginx: "/docker-entrypoint.sh nginx -g 'daemon off;'",
    redis: 'docker-entrypoint.sh redis-server',
    busybox: 'sh',
    mysql: 'docker-entrypoint.sh mysqld',
    postgres: 'docker-entrypoint.sh postgres',
  };
  const c = known[repo ?? ''] ?? '';
  const cut = c.length > 20 ? `${c.slice(0, 19)}…` : c;
  return `"${cut}"`;
}

function status(c: StandaloneContainer, now: number): string {
  if (c.state === 'running') return `Up ${dockerHumanDuration(now - c.startedAt)}`;
  return `Exited (${c.exitCode ?? 255}) ${dockerHumanDuration(now - (c.stoppedAt ?? now))} ago`;
}

/** tabwriter with a 3-space gap, as docker/cli's table formatter. */
function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map(
      (r) =>
        r
          .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] + 3)))
          .join('')
          .trimEnd() + '\n',
    )
    .join('');
}

/** `docker ps` as docker/cli prints it; `all` = `-a`. Lost containers are not listed (their machine is off). */
export function dockerPs(containers: StandaloneContainer[], now: number, all: boolean): string {
  const rows = [['CONTAINER ID', 'IMAGE', 'COMMAND', 'CREATED', 'STATUS', 'PORTS', 'NAMES']];
  for (const c of [...containers].reverse()) {
    if (c.state !== 'running' && !all) continue;
    rows.push([c.id.slice(0, 12), c.image, command(c.image), `${dockerHumanDuration(now - c.createdAt)} ago`, status(c, now), '', c.name]);
  }
  return table(rows);
}

function splitWords(line: string): string[] {
  return (line.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((w) => w.replace(/^(["'])(.*)\1$/, '$2'));
}

/**
 * Runs one `docker …` line against the machines' engines.
 * @returns stdout, stderr and exit code (125 for daemon/flag errors, as docker run)
 */
export function runDocker(engines: StandaloneContainers, line: string, now: number): KubectlResult {
  const args = splitWords(line);
  if (args[0] !== 'docker') return { output: '', error: `unknown command "${args[0] ?? ''}"\n`, exitCode: 1 };
  let i = 1;
  let host: string | null = null;
  while (args[i]?.startsWith('-')) {
    const a = args[i];
    if (a === '-H' || a === '--host') host = args[++i] ?? '';
    else if (a.startsWith('--host=')) host = a.slice(7);
    else return { output: '', error: `unknown flag: ${a}\nSee 'docker --help'.\n`, exitCode: 125 };
    i++;
  }
  const sub = args[i++];
  if (host === null) return { output: '', error: NO_DAEMON, exitCode: sub === 'run' ? 125 : 1 };
  const m = /^ssh:\/\/(?:[^@]+@)?([^:/]+)/.exec(host);
  if (!m) return { output: '', error: `unable to parse docker host \`${host}\`\n`, exitCode: 125 };
  const node = m[1];
  try {
    if (sub === 'ps') {
      const all = args.slice(i).some((a) => a === '-a' || a === '--all');
      if (engines.powered(node) === false)
        throw new DockerError(`error during connect: ssh: connect to host ${node} port 22: No route to host`);
      if (engines.powered(node) === undefined)
        throw new DockerError(`error during connect: ssh: Could not resolve hostname ${node}: Name or service not known`);
      return { output: dockerPs(engines.list(node), now, all), error: null, exitCode: 0 };
    }
    if (sub === 'run') {
      let name: string | undefined;
      let restart: RestartPolicy = 'no';
      let detach = false;
      let image: string | undefined;
      for (; i < args.length; i++) {
        const a = args[i];
        if (a === '-d' || a === '--detach') detach = true;
        else if (a === '--name') name = args[++i];
        else if (a.startsWith('--name=')) name = a.slice(7);
        else if (a === '--restart' || a.startsWith('--restart=')) {
          const v = a === '--restart' ? args[++i] : a.slice(10);
          const policy = v?.split(':')[0] as RestartPolicy;
          if (!RESTART_POLICIES.includes(policy))
            throw new DockerError(`invalid restart policy: invalid restart policy format: ${v ?? ''}\nSee 'docker run --help'.`);
          restart = policy;
        } else if (a === '-p' || a === '--publish' || a === '-e' || a === '--env') i++;
        else if (a.startsWith('-')) continue;
        else {
          image = a;
          break;
        }
      }
      if (!image)
        throw new DockerError(
          `"docker run" requires at least 1 argument.\nSee 'docker run --help'.\n\nUsage:  docker run [OPTIONS] IMAGE [COMMAND] [ARG...]\n\nCreate and run a new container from an image`,
        );
      if (!detach) throw new DockerError('kube-relay: only detached runs are simulated: add -d');
      const c = engines.run({ node, name, image, restart });
      return { output: `${c.id}\n`, error: null, exitCode: 0 };
    }
    return { output: '', error: `docker: '${sub ?? ''}' is not a docker command.\nSee 'docker --help'\n`, exitCode: 1 };
  } catch (e) {
    if (!(e instanceof DockerError)) throw e;
    return { output: '', error: `${e.message}\n`, exitCode: 125 };
  }
}

import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import type { RestartPolicy } from './standalone';
import { dockerHumanDuration } from './cli';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
`;

function runningPods(c: Cluster): string[] {
  return c
    .list('pods', 'default')
    .filter((p) => p.status?.phase === 'Running' && !p.metadata.deletionTimestamp)
    .map((p) => `${p.metadata.name}@${p.spec?.nodeName}`);
}

describe('docker run next to a Deployment, then the machine dies', () => {
  it('the Deployment heals on other nodes; the docker container is lost and nobody recreates it', () => {
    const c = new Cluster({ seed: 1, nodes: 3 });
    c.apply(DEPLOYMENT);
    c.docker.run({ node: 'node-1', name: 'web', image: 'nginx', restart: 'always' });
    c.settle(2 * 60_000);
    expect(runningPods(c)).toHaveLength(3);
    c.killNode('node-1');
    c.settle(10 * 60_000);
    const pods = runningPods(c);
    expect(pods).toHaveLength(3);
    expect(pods.every((p) => !p.endsWith('@node-1'))).toBe(true);
    expect(c.docker.list().map((x) => [x.name, x.node, x.state])).toEqual([['web', 'node-1', 'lost']]);
    // nobody recreated it on another machine
    expect(c.docker.list('node-2')).toEqual([]);
    expect(c.relay.all().some((h) => h.summary.startsWith('container web (docker run) died with machine node-1'))).toBe(true);
  });

  const restoreCases: { name: string; restart: RestartPolicy; state: string; restarts: number; ps: RegExp }[] = [
    {
      name: '--restart=always comes back with its machine',
      restart: 'always',
      state: 'running',
      restarts: 1,
      ps: /Up Less than a second\s+web\n$/,
    },
    {
      name: '--restart=unless-stopped comes back too',
      restart: 'unless-stopped',
      state: 'running',
      restarts: 1,
      ps: /Up Less than a second\s+web\n$/,
    },
    { name: '--restart=no stays Exited (255)', restart: 'no', state: 'exited', restarts: 0, ps: /Exited \(255\) 5 minutes ago\s+web\n$/ },
  ];
  for (const tc of restoreCases) {
    it(tc.name, () => {
      const c = new Cluster({ seed: 1, nodes: 2 });
      c.docker.run({ node: 'node-2', name: 'web', image: 'nginx', restart: tc.restart });
      c.killNode('node-2');
      c.advance(5 * 60_000);
      expect(c.docker.list()[0].state).toBe('lost');
      c.restoreNode('node-2');
      c.advance(1_000);
      const [x] = c.docker.list();
      expect([x.state, x.restartCount]).toEqual([tc.state, tc.restarts]);
      // the machine controller acted within the second: ps reads at that moment
      expect(c.dockerCommand('docker -H ssh://node-2 ps -a').output).toMatch(tc.ps);
    });
  }

  it('a removed machine takes its containers with it for good', () => {
    const c = new Cluster({ seed: 1, nodes: 2 });
    c.docker.run({ node: 'node-1', name: 'db', image: 'redis', restart: 'always' });
    c.removeNode('node-1');
    c.advance(60_000);
    expect(c.docker.list().map((x) => x.state)).toEqual(['lost']);
  });
});

describe('docker CLI (-H ssh://NODE)', () => {
  const cases: { name: string; lines: string[]; output?: RegExp; error?: string; exit: number }[] = [
    {
      name: 'run -d prints the 64-hex container ID',
      lines: ['docker -H ssh://node-1 run -d --restart=always --name web nginx'],
      output: /^[0-9a-f]{64}\n$/,
      exit: 0,
    },
    {
      name: 'no -H: no local daemon',
      lines: ['docker run -d nginx'],
      error: 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n',
      exit: 125,
    },
    {
      name: 'unknown host',
      lines: ['docker -H ssh://node-9 run -d nginx'],
      error: 'error during connect: ssh: Could not resolve hostname node-9: Name or service not known\n',
      exit: 125,
    },
    {
      name: 'image missing in the registry',
      lines: ['docker -H ssh://node-1 run -d nginx:1.161'],
      error:
        "Unable to find image 'nginx:1.161' locally\ndocker: Error response from daemon: manifest for nginx:1.161 not found: manifest unknown: manifest unknown.\n",
      exit: 125,
    },
    {
      name: 'bad restart policy',
      lines: ['docker -H ssh://node-1 run -d --restart=sometimes nginx'],
      error: "invalid restart policy: invalid restart policy format: sometimes\nSee 'docker run --help'.\n",
      exit: 125,
    },
    {
      name: 'ps lists the container in docker/cli columns',
      lines: ['docker -H ssh://node-1 run -d --restart always --name web nginx', 'docker -H ssh://node-1 ps'],
      output:
        /^CONTAINER ID   IMAGE   COMMAND                  CREATED                  STATUS                  PORTS   NAMES\n[0-9a-f]{12}   nginx   "\/docker-entrypoint\.…"   Less than a second ago   Up Less than a second           web\n$/,
      exit: 0,
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const c = new Cluster({ seed: 1, nodes: 2, images: { missing: ['nginx:1.161'] } });
      let r = c.dockerCommand(tc.lines[0]);
      for (const l of tc.lines.slice(1)) r = c.dockerCommand(l);
      if (tc.output) expect(r.output).toMatch(tc.output);
      if (tc.error !== undefined) expect(r.error).toBe(tc.error);
      expect(r.exitCode).toBe(tc.exit);
    });
  }

  it('the same name twice on one machine is a Conflict naming the first container', () => {
    const c = new Cluster({ seed: 1, nodes: 2 });
    const id = c.dockerCommand('docker -H ssh://node-1 run -d --name web nginx').output.trim();
    const r = c.dockerCommand('docker -H ssh://node-1 run -d --name web nginx');
    expect(r.error).toBe(
      `docker: Error response from daemon: Conflict. The container name "/web" is already in use by container "${id}". You have to remove (or rename) that container to be able to reuse that name.\n`,
    );
    // another machine's engine has its own names
    expect(c.dockerCommand('docker -H ssh://node-2 run -d --name web nginx').exitCode).toBe(0);
  });

  it('a powered-off machine cannot be reached', () => {
    const c = new Cluster({ seed: 1, nodes: 2 });
    c.killNode('node-1');
    c.advance(1_000);
    expect(c.dockerCommand('docker -H ssh://node-1 ps').error).toBe(
      'error during connect: ssh: connect to host node-1 port 22: No route to host\n',
    );
  });

  const durations: [number, string][] = [
    [500, 'Less than a second'],
    [1_000, '1 second'],
    [59_000, '59 seconds'],
    [60_000, 'About a minute'],
    [5 * 60_000, '5 minutes'],
    [3_600_000, 'About an hour'],
    [5 * 3_600_000, '5 hours'],
    [72 * 3_600_000, '3 days'],
  ];
  for (const [ms, want] of durations) it(`HumanDuration(${ms} ms) = ${want}`, () => expect(dockerHumanDuration(ms)).toBe(want));
});

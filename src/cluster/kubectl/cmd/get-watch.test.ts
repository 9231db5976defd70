/**
 * `kubectl get -w` (get-watch.ts): the first table, then one row per watch event of a
 * Deployment scaled 3 → 4, laid out by kubectl's remembering tabwriter (the STATUS column widens
 * for ContainerCreating and stays wide), with AGE at the simulated time each event arrives.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';
import type { GetWatchSession } from './get-watch';

const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
`;

function start(line: string) {
  const c = new Cluster({ seed: 1 });
  c.apply(DEPLOY);
  c.settle(600_000);
  let session: GetWatchSession | null = null;
  const r = c.kubectl(line, undefined, (s) => (session = s));
  return { c, r, session: session as GetWatchSession | null };
}

const NEW = 'web-5c94f75b5d-z85xd';

describe('kubectl get -w while web scales 3 → 4', () => {
  const cases: { name: string; line: string; first: string; live: string }[] = [
    {
      name: 'table: header once, watch rows keep the widest column seen',
      line: 'get pods -w',
      first:
        'NAME                   READY   STATUS    RESTARTS   AGE\n' +
        'web-5c94f75b5d-4ht7j   1/1     Running   0          40s\n' +
        'web-5c94f75b5d-dk2ql   1/1     Running   0          40s\n' +
        'web-5c94f75b5d-j9z42   1/1     Running   0          40s\n',
      live:
        `${NEW}   0/1     Pending   0          0s\n` +
        `${NEW}   0/1     Pending   0          0s\n` +
        `${NEW}   0/1     ContainerCreating   0          0s\n` +
        `${NEW}   0/1     ContainerCreating   0          0s\n` +
        `${NEW}   1/1     Running             0          0s\n`,
    },
    {
      name: '--output-watch-events: EVENT column, padded to eight',
      line: 'get pods -w --output-watch-events',
      first:
        'EVENT      NAME                   READY   STATUS    RESTARTS   AGE\n' +
        'ADDED      web-5c94f75b5d-4ht7j   1/1     Running   0          40s\n' +
        'ADDED      web-5c94f75b5d-dk2ql   1/1     Running   0          40s\n' +
        'ADDED      web-5c94f75b5d-j9z42   1/1     Running   0          40s\n',
      live:
        `ADDED      ${NEW}   0/1     Pending   0          0s\n` +
        `MODIFIED   ${NEW}   0/1     Pending   0          0s\n` +
        `MODIFIED   ${NEW}   0/1     ContainerCreating   0          0s\n` +
        `MODIFIED   ${NEW}   0/1     ContainerCreating   0          0s\n` +
        `MODIFIED   ${NEW}   1/1     Running             0          0s\n`,
    },
    {
      name: '--watch-only: no table; the header comes with the first event',
      line: 'get pods --watch-only',
      first: '',
      live:
        'NAME                   READY   STATUS    RESTARTS   AGE\n' +
        `${NEW}   0/1     Pending   0          0s\n` +
        `${NEW}   0/1     Pending   0          0s\n` +
        `${NEW}   0/1     ContainerCreating   0          0s\n` +
        `${NEW}   0/1     ContainerCreating   0          0s\n` +
        `${NEW}   1/1     Running             0          0s\n`,
    },
    {
      name: 'one named Deployment',
      line: 'get deploy web -w',
      first: 'NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    3/3     3            3           40s\n',
      live:
        'web    3/4     3            3           40s\n'.repeat(3) +
        'web    3/4     4            3           40s\n' +
        'web    4/4     4            4           40s\n',
    },
  ];
  it.each(cases)('$name', ({ line, first, live }) => {
    const { c, r, session } = start(line);
    expect(r).toEqual({ output: first, error: null, exitCode: 0 });
    c.kubectl('scale deploy web --replicas=4');
    c.settle(600_000);
    expect(session!.drain()).toBe(live);
    expect(session!.drain()).toBe('');
  });

  it('AGE is the simulated time at which each event arrives', () => {
    const { c, session } = start('get pods -w');
    c.advance(65_000);
    c.kubectl('delete pod web-5c94f75b5d-4ht7j');
    c.advance(1_000);
    const rows = session!.drain().split('\n').filter(Boolean);
    expect(rows[0]).toBe('web-5c94f75b5d-4ht7j   1/1     Terminating   0          105s');
  });

  it('-o yaml: one document per event, separated by ---', () => {
    const { c, r, session } = start('get pods -w -o yaml');
    expect(r.output.split('\n---\n')).toHaveLength(3);
    c.kubectl('scale deploy web --replicas=4');
    c.settle(600_000);
    const docs = session!.drain().split(/^---\n/m);
    expect(docs.slice(1).map((d) => /phase: (\w+)/.exec(d)?.[1])).toEqual(['Pending', 'Pending', 'Pending', 'Pending', 'Running']);
    expect(docs[0]).toBe('');
  });

  it('^C stops the watch: nothing more is printed', () => {
    const { c, session } = start('get pods -w');
    session!.stop();
    expect(session!.stopped).toBe(true);
    c.kubectl('scale deploy web --replicas=4');
    c.settle(600_000);
    expect(session!.drain()).toBe('');
  });

  const errors: [string, string, string][] = [
    ['two types', 'get pods,svc -w', 'error: you may only specify a single resource type\n'],
    [
      'two names',
      'get pods a b -w',
      'error: watch is only supported on individual resources and resource collections, but 2 resources were found\n',
    ],
    ['missing object', 'get pod nope -w', 'Error from server (NotFound): pods "nope" not found\n'],
  ];
  it.each(errors)('%s', (_n, line, error) => {
    const { r, session } = start(line);
    expect(r).toEqual({ output: '', error, exitCode: 1 });
    expect(session).toBeNull();
  });

  it('without a watch sink (scenario runner) -w prints the table once', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(DEPLOY);
    c.settle(600_000);
    expect(c.kubectl('get deploy -w').output).toBe(
      'NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    3/3     3            3           40s\n',
    );
  });
});

/**
 * Test fixture for the controller tests (like sample-controller's controller_test.go
 * `fixture`): an apiserver with a small strategy table (status subresources; Pods start
 * Pending), the `default` namespace, a shared informer factory, and a fake kubelet that marks
 * Pods Running/Ready and finishes graceful deletions. Not used by the engine itself.
 */
import { APIServer } from '../apiserver/apiserver';
import type { StrategyTable } from '../apiserver/registry/strategy';
import { SimClock } from '../sim/clock';
import { Rng } from '../sim/rng';
import { RelayRecorder } from '../relay/recorder';
import { users, type Client } from '../client/clientset';
import { SharedInformerFactory } from '../client/informer';
import { ComponentContext } from '../component-context';
import { KUBERNETES_DEFAULTS } from '../timings';
import { ImageRegistry } from '../sim/image-registry';
import { deepCopy } from '../api/types';
import type { ConfigMap, CoreEvent, Deployment, Namespace, Pod, ReplicaSet } from '../api/objects';
import type { DeploymentStrategy } from 'kubernetes-types/apps/v1';
import type { PodCondition } from 'kubernetes-types/core/v1';

/** Minimal strategies: status subresources keep status; new Pods are Pending (as PrepareForCreate does). */
export const TEST_STRATEGIES: StrategyTable = {
  pods: {
    hasStatus: true,
    prepareForCreate(obj) {
      obj.status = { phase: 'Pending', qosClass: 'BestEffort' };
    },
  },
  'replicasets.apps': { hasStatus: true },
  'deployments.apps': { hasStatus: true },
};

/** The kinds of the resources the controller tests read back, by the fixture's resource name. */
export interface FixtureKinds {
  pods: Pod;
  'replicasets.apps': ReplicaSet;
  'deployments.apps': Deployment;
  configmaps: ConfigMap;
}

export interface Fixture {
  clock: SimClock;
  relay: RelayRecorder;
  api: APIServer;
  ctx: ComponentContext;
  informers: SharedInformerFactory;
  kubectl: Client;
  /** Stored objects of a resource ("pods", "replicasets.apps") in `default`, by name. */
  list<R extends keyof FixtureKinds>(resource: R): FixtureKinds[R][];
  get<R extends keyof FixtureKinds>(resource: R, name: string): FixtureKinds[R] | undefined;
  /** Event messages "Reason: message" in creation order, optionally for one involved object name. */
  events(involvedName?: string): string[];
  /** Fake kubelet: binds Pending pods to `node`, marks them Running and Ready; removes terminating pods. */
  kubeletTick(node?: string): void;
  /** kubelet ticks + clock advances until nothing changes (max `rounds`). */
  settle(rounds?: number): void;
}

/** Builds a fixture; controllers are constructed by the caller before `informers.start()`. */
export function newFixture(seed = 1): Fixture {
  const clock = new SimClock();
  const relay = new RelayRecorder(() => clock.now());
  const api = new APIServer(clock, new Rng(seed), relay, TEST_STRATEGIES);
  const ctx = new ComponentContext(api, clock, new Rng(seed + 1), relay, KUBERNETES_DEFAULTS, new ImageRegistry());
  const informers = new SharedInformerFactory(ctx.client(users.controller('kube-controller-manager')));
  const kubectl = ctx.client(users.kubectl());
  kubectl.resource<Namespace>('', 'namespaces').create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  const kubelet = ctx.client(users.node('node-1'));
  // the store holds what the apiserver admitted for the resource: objects of its kind
  const list = <R extends keyof FixtureKinds>(resource: R) => api.store.list(resource, 'default').map((e) => e.obj as FixtureKinds[R]);
  const fx: Fixture = {
    clock,
    relay,
    api,
    ctx,
    informers,
    kubectl,
    list,
    get: <R extends keyof FixtureKinds>(resource: R, name: string) =>
      api.store.get(resource, `default/${name}`)?.obj as FixtureKinds[R] | undefined,
    events(involvedName) {
      return api.store
        .list('events')
        .sort((a, b) => a.createRev - b.createRev)
        .map((e) => e.obj as CoreEvent)
        .filter((e) => !involvedName || e.involvedObject?.name === involvedName)
        .map((e) => `${e.reason}: ${e.message}`);
    },
    kubeletTick(node = 'node-1') {
      const pods = kubelet.resource<Pod>('', 'pods');
      for (const p of list('pods')) {
        if (p.metadata.deletionTimestamp) {
          pods.delete('default', p.metadata.name, { gracePeriodSeconds: 0 });
          continue;
        }
        if (p.status?.phase === 'Running') continue;
        let cur = p;
        if (!cur.spec?.nodeName) cur = kubelet.bind('default', p.metadata.name, node) as Pod;
        const next = deepCopy(cur);
        const now = clock.nowRFC3339();
        next.status = {
          ...next.status,
          phase: 'Running',
          // lastProbeTime null: Go's zero metav1.Time, as the kubelet writes it (kubernetes-types: a string)
          conditions: [
            { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now },
            { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: now },
          ] as unknown as PodCondition[],
          startTime: now,
        };
        pods.updateStatus(next);
      }
    },
    settle(rounds = 50) {
      for (let i = 0; i < rounds; i++) {
        const rev = api.store.revision;
        fx.kubeletTick();
        clock.advance(100);
        if (api.store.revision === rev) return;
      }
    },
  };
  return fx;
}

/** A fully specified apps/v1 ReplicaSet (the tests run without defaulting). */
export function newReplicaSet(
  name: string,
  replicas: number,
  labels: Record<string, string> = { app: name },
  image = 'nginx:1.14.2',
): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default', labels: { ...labels } },
    spec: {
      replicas,
      selector: { matchLabels: { ...labels } },
      template: {
        metadata: { labels: { ...labels }, annotations: { 'example.com/note': 'copied' } },
        spec: {
          containers: [{ name: 'nginx', image, ports: [{ containerPort: 80, protocol: 'TCP' }] }],
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
          dnsPolicy: 'ClusterFirst',
        },
      },
    },
  };
}

/** A fully specified apps/v1 Deployment, as the apiserver's defaulting would leave it. */
export function newDeployment(
  name: string,
  replicas: number,
  image = 'nginx:1.14.2',
  strategy: DeploymentStrategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
): Deployment {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', labels: { ...labels } },
    spec: {
      replicas,
      selector: { matchLabels: { ...labels } },
      strategy,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      template: {
        metadata: { labels: { ...labels } },
        spec: {
          containers: [{ name: 'nginx', image, ports: [{ containerPort: 80, protocol: 'TCP' }] }],
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
          dnsPolicy: 'ClusterFirst',
        },
      },
    },
  };
}

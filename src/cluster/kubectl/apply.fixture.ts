/**
 * Test fixture for apply and the registry: a fresh kube-apiserver with the built-in
 * strategies and the four namespaces kube-apiserver creates at start-up (default,
 * kube-system, kube-public, kube-node-lease), and a kubectl client.
 */
import { APIServer } from '../apiserver/apiserver';
import { STRATEGIES } from '../apiserver/registry';
import { SimClock } from '../sim/clock';
import { Rng } from '../sim/rng';
import { RelayRecorder } from '../relay/recorder';
import { Client, users } from '../client/clientset';

/** A fresh apiserver and the kubectl user's client. */
export function freshCluster(seed = 1): { api: APIServer; kubectl: Client; clock: SimClock } {
  const clock = new SimClock();
  const rng = new Rng(seed);
  const relay = new RelayRecorder(() => clock.now());
  const api = new APIServer(clock, rng, relay, STRATEGIES);
  const sys = new Client(api, users.system('kube-apiserver'));
  for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    sys.resource('', 'namespaces').create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
  return { api, kubectl: new Client(api, users.kubectl()), clock };
}

import type { Deployment } from 'kubernetes-types/apps/v1'; // the kinds' fields, for the editor (dropped when compiled)

// The Website controller: for each Website, a Deployment and a Service it owns, and the
// Website's status.readyReplicas. Level-triggered: every reconcile compares what should
// exist with what does, whatever event woke it up.
// +kube-relay:for=websites.demo.kube-relay.dev
// +kube-relay:owns=deployments.apps
// +kube-relay:owns=services

export async function reconcile(request: ReconcileRequest, client: Client): Promise<ReconcileResult> {
  let site: KubeObject;
  try {
    site = await client.get({ apiVersion: 'demo.kube-relay.dev/v1', kind: 'Website', namespace: request.namespace, name: request.name });
  } catch (err) {
    // gone: what it owned carries an ownerReference, so the garbage collector removes it
    if (ctrl.isNotFound(err)) return {};
    throw err;
  }
  if (site.metadata.deletionTimestamp) return {};
  const name = site.metadata.name;
  const labels = { app: name };
  const replicas = site.spec.replicas ?? 1;
  const image = site.spec.image;

  // 1. the Deployment: create it, or bring it back to what the Website says
  const deployment = ctrl.setControllerReference<Deployment>(site, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: request.namespace, labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'web', image, ports: [{ containerPort: 80 }] }] } },
    },
  });
  let current: Deployment;
  try {
    current = await client.get<Deployment>(deployment);
  } catch (err) {
    if (!ctrl.isNotFound(err)) throw err;
    current = await client.create<Deployment>(deployment);
    await client.event(site, 'Normal', 'Created', `Created Deployment ${name}`);
  }
  const container = current.spec.template.spec.containers[0];
  if (current.spec.replicas !== replicas || container.image !== image) {
    current.spec.replicas = replicas;
    container.image = image;
    current = await client.update<Deployment>(current);
  }

  // 2. the Service in front of its Pods
  try {
    await client.get({ apiVersion: 'v1', kind: 'Service', namespace: request.namespace, name });
  } catch (err) {
    if (!ctrl.isNotFound(err)) throw err;
    await client.create(ctrl.setControllerReference(site, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: request.namespace, labels },
      spec: { selector: labels, ports: [{ port: 80, targetPort: 80 }] },
    }));
  }

  // 3. status: what is true now (the Deployment's own status, written by its controller)
  const ready = current.status?.readyReplicas ?? 0;
  const status = site.status ?? {};
  const conditions: Condition[] = status.conditions ?? [];
  const changed = ctrl.setStatusCondition(conditions, {
    type: 'Ready',
    status: ready >= replicas ? 'True' : 'False',
    reason: ready >= replicas ? 'AllReplicasReady' : 'Progressing',
    message: `${ready}/${replicas} replicas ready`,
  }, request.now);
  if (changed || status.readyReplicas !== ready) {
    site.status = { ...status, readyReplicas: ready, conditions };
    await client.updateStatus(site);
  }
  // nothing to wait for: the next change of the Website, its Deployment or its Service wakes us
  return {};
}

/**
 * The Node authorizer (plugin/pkg/auth/authorizer/node/node_authorizer.go) and the
 * NodeRestriction admission plugin (plugin/pkg/admission/noderestriction/admission.go):
 * a kubelet (`system:node:<node>` in `system:nodes`) may read only the Secrets, ConfigMaps,
 * PersistentVolumeClaims and PersistentVolumes that Pods bound to its node use, request
 * tokens only for those Pods' ServiceAccounts, list/watch Pods only with the
 * `spec.nodeName=<node>` field selector, read only its own Node (get by name, list/watch with
 * `metadata.name=<node>`: AuthorizeNodeWithSelectors, beta and on in v1.33), touch only its
 * own Lease in kube-node-lease, and
 * everything else the system:node rules (NodeRules) allow; NodeRestriction then keeps its
 * writes to its own Node and the Pods bound to it.
 *
 * Upstream walks a graph the authorizer keeps from informers (graph.go, graph_populator.go);
 * here the same edges are followed from the store on demand: Pod → Secret / ConfigMap
 * (volumes, projected sources, env, envFrom, imagePullSecrets), Pod → ServiceAccount,
 * Pod → PVC → PV → Secret.
 */
import type { MVCCStore } from '../../storage/mvcc';
import type { KObject } from '../../api/types';
import { newForbidden, type StatusError } from '../../api/errors';
import { nodeRules, type PolicyRule } from './bootstrap-policy';
import { rulesAllow, type Attributes, type Decision } from './rbac';

/** nodeidentifier.NodeIdentity: the node name of a `system:node:<name>` user in system:nodes. */
export function nodeIdentity(user: { name: string; groups?: string[] }): { isNode: boolean; nodeName: string } {
  if (!user.name.startsWith('system:node:')) return { isNode: false, nodeName: '' };
  if (!(user.groups ?? []).includes('system:nodes')) return { isNode: false, nodeName: '' };
  return { isNode: true, nodeName: user.name.slice('system:node:'.length) };
}

type VertexType = 'secret' | 'configmap' | 'pvc' | 'pv' | 'serviceaccount' | 'pod';

const NODE_RULES: readonly PolicyRule[] = nodeRules();

/** Names a Pod references, by vertex type (graph_populator.go AddPod / podutil.VisitPodSecretNames, VisitPodConfigmapNames). */
function podRefs(pod: KObject, type: VertexType): Set<string> {
  const out = new Set<string>();
  const spec = pod.spec ?? {};
  if (type === 'serviceaccount') {
    out.add(spec.serviceAccountName || 'default');
    return out;
  }
  if (type === 'secret') for (const s of spec.imagePullSecrets ?? []) if (s?.name) out.add(s.name);
  const containers = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
  for (const c of containers) {
    for (const e of c.envFrom ?? []) {
      if (type === 'secret' && e.secretRef?.name) out.add(e.secretRef.name);
      if (type === 'configmap' && e.configMapRef?.name) out.add(e.configMapRef.name);
    }
    for (const e of c.env ?? []) {
      if (type === 'secret' && e.valueFrom?.secretKeyRef?.name) out.add(e.valueFrom.secretKeyRef.name);
      if (type === 'configmap' && e.valueFrom?.configMapKeyRef?.name) out.add(e.valueFrom.configMapKeyRef.name);
    }
  }
  for (const v of spec.volumes ?? []) {
    if (type === 'secret' && v.secret?.secretName) out.add(v.secret.secretName);
    if (type === 'configmap' && v.configMap?.name) out.add(v.configMap.name);
    if (type === 'pvc' && v.persistentVolumeClaim?.claimName) out.add(v.persistentVolumeClaim.claimName);
    if (type === 'pvc' && v.ephemeral) out.add(`${pod.metadata.name}-${v.name}`);
    for (const src of v.projected?.sources ?? []) {
      if (type === 'secret' && src.secret?.name) out.add(src.secret.name);
      if (type === 'configmap' && src.configMap?.name) out.add(src.configMap.name);
    }
  }
  return out;
}

/** Whether two versions of a Pod have the same {@link NodeAuthorizer} edges: the same spec object, namespace and name. */
function sameEdgeInputs(a: KObject, b: KObject): boolean {
  return a.spec === b.spec && a.metadata.namespace === b.metadata.namespace && a.metadata.name === b.metadata.name;
}

/**
 * NodeAuthorizer: an opinion only on requests of node identities; everything else is
 * no opinion (the next authorizer, RBAC, decides).
 */
export class NodeAuthorizer {
  constructor(private readonly store: MVCCStore) {}

  /**
   * The graph's Pod edges (graph_populator.go AddPod/DeletePod): how many Pods bound to a
   * node reference `type/namespace/name`, kept from the Pod writes (`onPodEvent`) once built.
   */
  private edges: Map<string, number> | null = null;

  private static edgeKeys(pod: KObject | undefined): string[] {
    const node = pod?.spec?.nodeName;
    if (!pod || !node) return [];
    const ns = pod.metadata.namespace ?? '';
    const out: string[] = [];
    for (const t of ['secret', 'configmap', 'pvc', 'serviceaccount'] as const)
      for (const n of podRefs(pod, t)) out.push(`${node}\0${t}\0${ns}\0${n}`);
    return out;
  }

  private bump(keys: string[], d: number): void {
    const m = this.edges!;
    for (const k of keys) {
      const v = (m.get(k) ?? 0) + d;
      if (v > 0) m.set(k, v);
      else m.delete(k);
    }
  }

  /** Keeps the edges in step with a Pod write (call for every store event of `pods`). */
  onPodEvent(ev: { type: string; obj: KObject; prev?: KObject }): void {
    if (!this.edges) return;
    // a write that kept the spec object and the name (every status update: the status strategy
    // shares the stored spec) has the same edges: removing and re-adding them changes no count
    if (ev.type === 'MODIFIED' && ev.prev && sameEdgeInputs(ev.prev, ev.obj)) return;
    if (ev.type !== 'ADDED') this.bump(NodeAuthorizer.edgeKeys(ev.type === 'DELETED' ? (ev.prev ?? ev.obj) : ev.prev), -1);
    if (ev.type !== 'DELETED') this.bump(NodeAuthorizer.edgeKeys(ev.obj), 1);
  }

  private edgeCount(nodeName: string, type: VertexType, namespace: string, name: string): number {
    if (!this.edges) {
      this.edges = new Map();
      for (const e of this.store.list('pods')) this.bump(NodeAuthorizer.edgeKeys(e.obj), 1);
    }
    return this.edges.get(`${nodeName}\0${type}\0${namespace}\0${name}`) ?? 0;
  }

  /** Pods bound to the node (in one namespace when given). */
  private podsOn(nodeName: string, namespace?: string): KObject[] {
    const out: KObject[] = [];
    for (const e of this.store.list('pods', namespace)) if (e.obj.spec?.nodeName === nodeName) out.push(e.obj);
    return out;
  }

  /** Whether any Pod bound to the node uses a PVC (only then can a PV's secret be reachable). */
  private anyPVCOn(nodeName: string): boolean {
    for (const k of this.edges!.keys()) if (k.startsWith(`${nodeName}\0pvc\0`)) return true;
    return false;
  }

  /** graph.go hasPathFrom: a path from the node to the object. */
  hasPathFrom(nodeName: string, type: VertexType, namespace: string, name: string): boolean {
    if (type === 'pod') return this.store.get('pods', `${namespace}/${name}`)?.obj.spec?.nodeName === nodeName;
    if (type === 'pv') {
      for (const pod of this.podsOn(nodeName)) {
        for (const claim of podRefs(pod, 'pvc')) {
          const pvc = this.store.get('persistentvolumeclaims', `${pod.metadata.namespace}/${claim}`)?.obj;
          if (pvc?.spec?.volumeName === name) return true;
        }
      }
      return false;
    }
    if (this.edgeCount(nodeName, type, namespace, name) > 0) return true;
    if (type === 'secret' && this.edgeCount(nodeName, 'pvc', '', '') >= 0 && this.anyPVCOn(nodeName)) {
      // Pod → PVC → PV → Secret (a PV's CSI / other secret references)
      for (const pod of this.podsOn(nodeName)) {
        for (const claim of podRefs(pod, 'pvc')) {
          const pvc = this.store.get('persistentvolumeclaims', `${pod.metadata.namespace}/${claim}`)?.obj;
          const pv = pvc?.spec?.volumeName ? this.store.get('persistentvolumes', pvc.spec.volumeName)?.obj : undefined;
          const csi = pv?.spec?.csi;
          for (const ref of [csi?.nodePublishSecretRef, csi?.nodeStageSecretRef, csi?.controllerPublishSecretRef]) {
            if (ref?.name === name && (ref.namespace ?? '') === namespace) return true;
          }
        }
      }
    }
    return false;
  }

  private authorizeByGraph(nodeName: string, type: VertexType, a: Attributes): Decision {
    if (!a.name) return { decision: 'noopinion', reason: 'No Object name found', by: 'Node' };
    if (!this.hasPathFrom(nodeName, type, a.namespace, a.name))
      return { decision: 'noopinion', reason: `no relationship found between node '${nodeName}' and this object`, by: 'Node' };
    return { decision: 'allow', reason: '', by: 'Node' };
  }

  private readNamespaced(nodeName: string, type: VertexType, a: Attributes): Decision {
    if (!['get', 'list', 'watch'].includes(a.verb))
      return { decision: 'noopinion', reason: 'can only read resources of this type', by: 'Node' };
    if (a.subresource) return { decision: 'noopinion', reason: 'cannot read subresource', by: 'Node' };
    if (!a.namespace) return { decision: 'noopinion', reason: 'can only read namespaced object of this type', by: 'Node' };
    return this.authorizeByGraph(nodeName, type, a);
  }

  private getOnly(nodeName: string, type: VertexType, a: Attributes): Decision {
    if (a.verb !== 'get') return { decision: 'noopinion', reason: 'can only get individual resources of this type', by: 'Node' };
    if (a.subresource) return { decision: 'noopinion', reason: 'cannot get subresource', by: 'Node' };
    return this.authorizeByGraph(nodeName, type, a);
  }

  /**
   * node_authorizer.go authorizeNode (AuthorizeNodeWithSelectors, beta and on in v1.33): writes
   * are left to NodeRestriction; a read must name the node's own Node — a get by name, a
   * list/watch by the `metadata.name=<node>` field selector (the request info's name, see
   * APIServer.list); no other verb or subresource.
   */
  private authorizeNode(nodeName: string, a: Attributes): Decision {
    if (a.subresource === '') {
      if (a.verb === 'create' || a.verb === 'update' || a.verb === 'patch') return { decision: 'allow', reason: '', by: 'Node' };
      if (a.verb === 'get' || a.verb === 'list' || a.verb === 'watch') {
        if (a.name === nodeName) return { decision: 'allow', reason: '', by: 'Node' };
        if (a.name === '')
          return { decision: 'noopinion', reason: `node '${nodeName}' cannot read all nodes, only its own Node object`, by: 'Node' };
        return { decision: 'noopinion', reason: `node '${nodeName}' cannot read '${a.name}', only its own Node object`, by: 'Node' };
      }
    } else if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) {
      return { decision: 'allow', reason: '', by: 'Node' };
    }
    return { decision: 'noopinion', reason: '', by: 'Node' };
  }

  /**
   * node_authorizer.go authorizePod (AuthorizeNodeWithSelectors): get of a Pod bound to the
   * node, list/watch only with `spec.nodeName=<node>` (or of one related Pod by name), create
   * and delete (mirror Pods) and status/eviction left to NodeRestriction.
   */
  private authorizePod(nodeName: string, a: Attributes): Decision {
    const allow: Decision = { decision: 'allow', reason: '', by: 'Node' };
    if (a.subresource === '') {
      if (a.verb === 'get') return this.getOnly(nodeName, 'pod', a);
      if (a.verb === 'list' || a.verb === 'watch') {
        if ((a.fieldSelector ?? []).some((r) => r.field === 'spec.nodeName' && r.op === '=' && r.value === nodeName)) return allow;
        if (a.name) return this.authorizeByGraph(nodeName, 'pod', a);
        return { decision: 'noopinion', reason: 'can only list/watch pods with spec.nodeName field selector', by: 'Node' };
      }
      if (a.verb === 'create' || a.verb === 'delete') return allow;
    } else if (a.subresource === 'status') {
      if (a.verb === 'update' || a.verb === 'patch') return allow;
    } else if (a.subresource === 'eviction') {
      if (a.verb === 'create') return allow;
    }
    return { decision: 'noopinion', reason: '', by: 'Node' };
  }

  /** node_authorizer.go Authorize. */
  authorize(a: Attributes): Decision {
    const { isNode, nodeName } = nodeIdentity(a.user);
    if (!isNode) return { decision: 'noopinion', reason: '' };
    if (!nodeName) return { decision: 'noopinion', reason: `unknown node for user "${a.user.name}"`, by: 'Node' };
    if (a.resourceRequest) {
      const gr = a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource;
      switch (gr) {
        case 'secrets':
          return this.readNamespaced(nodeName, 'secret', a);
        case 'configmaps':
          return this.readNamespaced(nodeName, 'configmap', a);
        case 'persistentvolumeclaims':
          if (a.subresource === 'status') {
            if (!['update', 'patch'].includes(a.verb))
              return { decision: 'noopinion', reason: 'can only get/update/patch this type', by: 'Node' };
            return this.authorizeByGraph(nodeName, 'pvc', a);
          }
          return this.getOnly(nodeName, 'pvc', a);
        case 'persistentvolumes':
          return this.getOnly(nodeName, 'pv', a);
        case 'serviceaccounts':
          if (a.verb !== 'create' || !a.name)
            return { decision: 'noopinion', reason: 'can only create tokens for individual service accounts', by: 'Node' };
          if (a.subresource !== 'token')
            return { decision: 'noopinion', reason: 'can only create token subresource of serviceaccount', by: 'Node' };
          return this.authorizeByGraph(nodeName, 'serviceaccount', a);
        case 'leases.coordination.k8s.io':
          if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb))
            return { decision: 'noopinion', reason: 'can only get, create, update, patch, or delete a node lease', by: 'Node' };
          if (a.namespace !== 'kube-node-lease')
            return { decision: 'noopinion', reason: 'can only access leases in the "kube-node-lease" system namespace', by: 'Node' };
          if (a.verb !== 'create' && a.name !== nodeName)
            return { decision: 'noopinion', reason: 'can only access node lease with the same name as the requesting node', by: 'Node' };
          return { decision: 'allow', reason: '', by: 'Node' };
        case 'nodes':
          return this.authorizeNode(nodeName, a);
        case 'pods':
          return this.authorizePod(nodeName, a);
      }
    }
    return rulesAllow(a, NODE_RULES) ? { decision: 'allow', reason: '', by: 'Node' } : { decision: 'noopinion', reason: '', by: 'Node' };
  }
}

/**
 * NodeRestriction admission (admission.go Admit) for a node's writes: Pods only its own
 * (mirror Pods to create), pod status and evictions only of its Pods, Nodes only its own.
 * @returns the 403 to answer, or null.
 */
export function nodeRestriction(
  user: { name: string; groups?: string[] },
  verb: string,
  resource: string,
  subresource: string,
  name: string,
  obj: KObject | undefined,
  old: KObject | undefined,
): StatusError | null {
  const { isNode, nodeName } = nodeIdentity(user);
  if (!isNode) return null;
  if (resource === 'pods') {
    if (subresource === '') {
      if (verb === 'create') {
        if (!obj?.metadata?.annotations?.['kubernetes.io/config.mirror'])
          return newForbidden(
            'pods',
            name,
            `pod does not have "kubernetes.io/config.mirror" annotation, node "${nodeName}" can only create mirror pods`,
          );
        if (obj.spec?.nodeName !== nodeName)
          return newForbidden('pods', name, `node "${nodeName}" can only create pods with spec.nodeName set to itself`);
      }
      if (verb === 'delete' && old && old.spec?.nodeName !== nodeName)
        return newForbidden('pods', name, `node "${nodeName}" can only delete pods with spec.nodeName set to itself`);
    }
    if (subresource === 'status' && old && old.spec?.nodeName !== nodeName)
      return newForbidden('pods', name, `node "${nodeName}" can only update pod status for pods with spec.nodeName set to itself`);
    if (subresource === 'eviction' && old && old.spec?.nodeName !== nodeName)
      return newForbidden('pods', name, `node "${nodeName}" can only evict pods with spec.nodeName set to itself`);
  }
  if (resource === 'nodes' && (verb === 'create' || verb === 'update' || verb === 'patch' || verb === 'delete') && name !== nodeName) {
    return newForbidden('nodes', name, `node "${nodeName}" is not allowed to modify node "${name}"`);
  }
  return null;
}

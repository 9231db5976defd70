/**
 * Defaulting of Pods and pod templates, as pkg/apis/core/v1/defaults.go (SetDefaults_Pod,
 * SetDefaults_PodSpec, SetDefaults_Container, SetDefaults_Probe, SetDefaults_*VolumeSource…)
 * and the generated zz_generated.defaults.go (`+default` markers: port protocol TCP, grpc
 * service ""), plus what Go's serializer always prints for non-pointer structs
 * (`resources: {}`, `securityContext: {}`, a template's `creationTimestamp: null`).
 */
import type { KObject } from '../../api/types';
import { parseQuantity } from './quantity';
import { hasOwn, setOwn } from '../../api/safe-object';
import { canonicalResourceQuantity } from '../../api/quantity';

type Obj = Record<string, any>;

/** The image tag as parsers.ParseImageName sees it ("latest" when neither tag nor digest). */
export function imageTag(image: string): string {
  let name = image;
  let digest = '';
  const at = name.indexOf('@');
  if (at >= 0) {
    digest = name.slice(at + 1);
    name = name.slice(0, at);
  }
  const lastSlash = name.lastIndexOf('/');
  const colon = name.indexOf(':', lastSlash + 1);
  if (colon >= 0) return name.slice(colon + 1);
  return digest ? '' : 'latest';
}

/** SetDefaults_Probe + handler defaults. */
function defaultProbe(p: Obj | undefined): void {
  if (!p || typeof p !== 'object') return;
  defaultHandler(p);
  if (!p.timeoutSeconds) p.timeoutSeconds = 1;
  if (!p.periodSeconds) p.periodSeconds = 10;
  if (!p.successThreshold) p.successThreshold = 1;
  if (!p.failureThreshold) p.failureThreshold = 3;
}

/** SetDefaults_HTTPGetAction and the generated GRPCAction default. */
function defaultHandler(h: Obj | undefined): void {
  if (!h || typeof h !== 'object') return;
  if (h.httpGet && typeof h.httpGet === 'object') {
    if (!h.httpGet.path) h.httpGet.path = '/';
    if (!h.httpGet.scheme) h.httpGet.scheme = 'HTTP';
  }
  if (h.grpc && typeof h.grpc === 'object' && h.grpc.service === undefined) h.grpc.service = '';
}

function defaultEnv(env: unknown): void {
  if (!Array.isArray(env)) return;
  for (const e of env) {
    const fr = e?.valueFrom?.fieldRef;
    if (fr && typeof fr === 'object' && !fr.apiVersion) fr.apiVersion = 'v1';
    const rr = e?.valueFrom?.resourceFieldRef;
    if (rr && typeof rr === 'object' && rr.divisor === undefined) rr.divisor = '0';
  }
}

/**
 * SetDefaults_ResourceList: every value rounded up to milli scale, in its canonical text
 * (api/quantity.ts canonicalResourceQuantity: "0.5" → "500m", "1.5Gi" → "1536Mi"), as the
 * stored object of a real cluster prints it. Values that are not quantities are left for
 * validation. A non-object is left alone.
 */
export function defaultResourceList(list: unknown): void {
  if (!list || typeof list !== 'object' || Array.isArray(list)) return;
  for (const [k, v] of Object.entries(list)) {
    if (typeof v === 'string' || typeof v === 'number') setOwn(list as Obj, k, canonicalResourceQuantity(v));
  }
}

/** The ResourceLists of a ResourceRequirements (limits, requests). */
function defaultRequirements(r: unknown): void {
  if (!r || typeof r !== 'object') return;
  defaultResourceList((r as Obj).limits);
  defaultResourceList((r as Obj).requests);
}

/** SetDefaults_Container and friends for one container. */
export function defaultContainer(c: Obj): void {
  if (!c || typeof c !== 'object') return;
  // ParseImageName fails on "" and on malformed references (upper case in the repository):
  // the tag is then "" → IfNotPresent
  if (!c.imagePullPolicy) {
    const ok = typeof c.image === 'string' && c.image !== '' && !/[A-Z\s]/.test(c.image.split('@')[0].replace(/:[^/]*$/, ''));
    c.imagePullPolicy = ok && imageTag(c.image) === 'latest' ? 'Always' : 'IfNotPresent';
  }
  if (!c.terminationMessagePath) c.terminationMessagePath = '/dev/termination-log';
  if (!c.terminationMessagePolicy) c.terminationMessagePolicy = 'File';
  if (c.resources === undefined || c.resources === null) c.resources = {};
  defaultRequirements(c.resources);
  if (Array.isArray(c.ports)) for (const p of c.ports) if (p && typeof p === 'object' && !p.protocol) p.protocol = 'TCP';
  defaultEnv(c.env);
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  if (c.lifecycle && typeof c.lifecycle === 'object') {
    defaultHandler(c.lifecycle.postStart);
    defaultHandler(c.lifecycle.preStop);
  }
}

const VOLUME_SOURCES = [
  'hostPath',
  'emptyDir',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'persistentVolumeClaim',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'downwardAPI',
  'fc',
  'azureFile',
  'configMap',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'projected',
  'portworxVolume',
  'scaleIO',
  'storageos',
  'csi',
  'ephemeral',
  'image',
];

/** The volume source keys a volume may carry. */
export const VOLUME_SOURCE_KEYS: readonly string[] = VOLUME_SOURCES;

/**
 * The declarative (`+default`) defaults zz_generated.defaults.go applies to volume sources of
 * Pods and PersistentVolumes alike: iscsi iscsiInterface "default"; rbd pool "rbd", user
 * "admin", keyring "/etc/ceph/keyring"; azureDisk cachingMode ReadWrite, kind Shared, fsType
 * ext4, readOnly false; scaleIO storageMode ThinProvisioned, fsType xfs.
 */
export function defaultVolumeSources(v: Obj): void {
  const set = (o: unknown, k: string, d: unknown) => {
    if (o && typeof o === 'object' && ((o as Obj)[k] === undefined || (o as Obj)[k] === null || (o as Obj)[k] === '')) (o as Obj)[k] = d;
  };
  set(v.iscsi, 'iscsiInterface', 'default');
  set(v.rbd, 'pool', 'rbd');
  set(v.rbd, 'user', 'admin');
  set(v.rbd, 'keyring', '/etc/ceph/keyring');
  if (v.azureDisk && typeof v.azureDisk === 'object') {
    // pointer fields: only nil is defaulted
    for (const [k, d] of [
      ['cachingMode', 'ReadWrite'],
      ['kind', 'Shared'],
      ['fsType', 'ext4'],
      ['readOnly', false],
    ] as const) {
      if (v.azureDisk[k] === undefined || v.azureDisk[k] === null) v.azureDisk[k] = d;
    }
  }
  set(v.scaleIO, 'storageMode', 'ThinProvisioned');
  set(v.scaleIO, 'fsType', 'xfs');
}

/** SetDefaults_Volume and the per-source defaults (defaultMode 420, hostPath type ""). */
export function defaultVolume(v: Obj): void {
  if (!v || typeof v !== 'object') return;
  defaultVolumeSources(v);
  if (!VOLUME_SOURCES.some((k) => v[k] !== undefined && v[k] !== null)) v.emptyDir = {};
  for (const k of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    if (v[k] && typeof v[k] === 'object' && v[k].defaultMode === undefined) v[k].defaultMode = 420;
  }
  if (v.hostPath && typeof v.hostPath === 'object' && v.hostPath.type === undefined) v.hostPath.type = '';
  for (const item of v.downwardAPI?.items ?? []) defaultDownwardAPIFile(item);
  for (const src of v.projected?.sources ?? []) {
    for (const item of src?.downwardAPI?.items ?? []) defaultDownwardAPIFile(item);
    if (src?.serviceAccountToken && src.serviceAccountToken.expirationSeconds === undefined)
      src.serviceAccountToken.expirationSeconds = 3600;
  }
  const vct = v.ephemeral?.volumeClaimTemplate?.spec;
  if (vct && typeof vct === 'object') {
    if (!vct.volumeMode) vct.volumeMode = 'Filesystem';
    defaultRequirements(vct.resources);
  }
}

/**
 * One downwardAPI volume file: SetDefaults_ObjectFieldSelector (apiVersion v1) and the
 * resourceFieldRef's divisor, a non-pointer Quantity that Go always prints ("0" when unset).
 */
function defaultDownwardAPIFile(item: Obj | undefined): void {
  if (!item || typeof item !== 'object') return;
  if (item.fieldRef && typeof item.fieldRef === 'object' && !item.fieldRef.apiVersion) item.fieldRef.apiVersion = 'v1';
  const rr = item.resourceFieldRef;
  if (rr && typeof rr === 'object' && rr.divisor === undefined) rr.divisor = '0';
}

/** SetDefaults_PodSpec (shared by Pods and every pod template). */
export function defaultPodSpec(spec: Obj | undefined): void {
  if (!spec || typeof spec !== 'object') return;
  if (!spec.dnsPolicy) spec.dnsPolicy = 'ClusterFirst';
  if (!spec.restartPolicy) spec.restartPolicy = 'Always';
  if (spec.securityContext === undefined || spec.securityContext === null) spec.securityContext = {};
  if (spec.terminationGracePeriodSeconds === undefined || spec.terminationGracePeriodSeconds === null)
    spec.terminationGracePeriodSeconds = 30;
  if (!spec.schedulerName) spec.schedulerName = 'default-scheduler';
  if (Array.isArray(spec.containers)) spec.containers.forEach(defaultContainer);
  if (Array.isArray(spec.initContainers)) spec.initContainers.forEach(defaultContainer);
  if (Array.isArray(spec.ephemeralContainers)) spec.ephemeralContainers.forEach(defaultContainer);
  if (Array.isArray(spec.volumes)) spec.volumes.forEach(defaultVolume);
  defaultResourceList(spec.overhead);
  defaultRequirements(spec.resources);
}

/** Defaults of a PodTemplateSpec inside a workload (`template.metadata.creationTimestamp: null`). */
export function defaultPodTemplate(tpl: Obj | undefined): void {
  if (!tpl || typeof tpl !== 'object') return;
  if (!tpl.metadata || typeof tpl.metadata !== 'object') tpl.metadata = {};
  if (!('creationTimestamp' in tpl.metadata)) tpl.metadata.creationTimestamp = null;
  if (!tpl.spec || typeof tpl.spec !== 'object') tpl.spec = {};
  defaultPodSpec(tpl.spec);
}

function limitsToRequests(c: Obj): void {
  const lim = c?.resources?.limits;
  if (!lim || typeof lim !== 'object') return;
  c.resources.requests = c.resources.requests ?? {};
  for (const k of Object.keys(lim)) if (!hasOwn(c.resources.requests, k)) setOwn(c.resources.requests, k, lim[k]);
}

function hostNetworkPorts(cs: unknown): void {
  if (!Array.isArray(cs)) return;
  for (const c of cs) for (const p of c?.ports ?? []) if (p && p.hostPort === undefined) p.hostPort = p.containerPort;
}

/** SetDefaults_Pod: requests from limits, enableServiceLinks, hostNetwork hostPorts; then the PodSpec defaults. */
export function defaultPod(pod: KObject): void {
  const spec = pod.spec;
  if (!spec || typeof spec !== 'object') return;
  if (Array.isArray(spec.containers)) spec.containers.forEach(limitsToRequests);
  if (Array.isArray(spec.initContainers)) spec.initContainers.forEach(limitsToRequests);
  if (spec.enableServiceLinks === undefined || spec.enableServiceLinks === null) spec.enableServiceLinks = true;
  if (spec.hostNetwork) {
    hostNetworkPorts(spec.containers);
    hostNetworkPorts(spec.initContainers);
  }
  defaultPodSpec(spec);
}

/**
 * The pod's QoS class, as pkg/apis/core/v1/helper/qos (GetPodQOS): only cpu and memory
 * count; Guaranteed when every container has equal cpu+memory requests and limits.
 */
export function podQOSClass(spec: Obj): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const cs: Obj[] = [...(spec.containers ?? []), ...(spec.initContainers ?? [])];
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let isGuaranteed = true;
  const num = (q: unknown) => parseQuantity(q) ?? 0;
  for (const c of cs) {
    const req = c?.resources?.requests ?? {};
    const lim = c?.resources?.limits ?? {};
    for (const k of ['cpu', 'memory']) {
      if (k in req && num(req[k]) !== 0) requests.set(k, (requests.get(k) ?? 0) + num(req[k]));
    }
    const qosLimitsFound = new Set<string>();
    for (const k of ['cpu', 'memory']) {
      if (k in lim && num(lim[k]) !== 0) {
        qosLimitsFound.add(k);
        limits.set(k, (limits.get(k) ?? 0) + num(lim[k]));
      }
    }
    if (!(qosLimitsFound.has('cpu') && qosLimitsFound.has('memory'))) isGuaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (isGuaranteed) {
    for (const [k, v] of requests) if (limits.get(k) !== v) isGuaranteed = false;
  }
  if (isGuaranteed && requests.size === limits.size) return 'Guaranteed';
  return 'Burstable';
}

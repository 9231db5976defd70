/**
 * The Service strategy: defaults from pkg/apis/core/v1/defaults.go (SetDefaults_Service),
 * validation from pkg/apis/core/validation (ValidateService, validateServicePort,
 * ValidateServiceUpdate), and the allocation the service REST storage does
 * (pkg/registry/core/service/storage/alloc.go: ClusterIPs from 10.96.0.0/12, NodePorts
 * from 30000–32767, reused on update, released on delete).
 */
import type { FieldError } from '../../api/errors';
import type { KObject } from '../../api/types';
import type { Strategy, StrategyContext } from './strategy';
import { checkMetaTypes, checkStringMap, goIntOrString, nameIsDNS1035Label, validateLabels, validateObjectMeta } from './validation/meta';
import { isDNS1123Label, isDNS1123Subdomain, isIPv4, isQualifiedName, isValidPortName, isValidPortNum } from '../../api/validation/names';

type Obj = Record<string, any>;

const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];

function needsClusterIP(s: Obj): boolean {
  return s.type !== 'ExternalName';
}
function needsNodePorts(s: Obj): boolean {
  return s.type === 'NodePort' || (s.type === 'LoadBalancer' && s.allocateLoadBalancerNodePorts !== false);
}
function externallyAccessible(s: Obj): boolean {
  return s.type === 'LoadBalancer' || s.type === 'NodePort' || (s.type === 'ClusterIP' && (s.externalIPs?.length ?? 0) > 0);
}

/** SetDefaults_Service. */
export function defaultService(obj: KObject): void {
  const s: Obj = (obj.spec = obj.spec && typeof obj.spec === 'object' ? obj.spec : {});
  if (!s.sessionAffinity) s.sessionAffinity = 'None';
  if (s.sessionAffinity === 'None') delete s.sessionAffinityConfig;
  if (s.sessionAffinity === 'ClientIP' && s.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    s.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  }
  if (!s.type) s.type = 'ClusterIP';
  for (const p of Array.isArray(s.ports) ? s.ports : []) {
    if (!p || typeof p !== 'object') continue;
    if (!p.protocol) p.protocol = 'TCP';
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  if (externallyAccessible(s) && !s.externalTrafficPolicy) s.externalTrafficPolicy = 'Cluster';
  if (!s.internalTrafficPolicy && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(s.type)) s.internalTrafficPolicy = 'Cluster';
  if (s.type === 'LoadBalancer' && s.allocateLoadBalancerNodePorts === undefined) s.allocateLoadBalancerNodePorts = true;
}

const sameJSON = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
/** The set of non-zero nodePorts of `s`. */
const nodePortSet = (s: Obj) =>
  new Set<number>(
    (Array.isArray(s.ports) ? s.ports : [])
      .map((p: Obj) => p?.nodePort)
      .filter((n: unknown): n is number => typeof n === 'number' && n !== 0),
  );

/**
 * dropTypeDependentFields (pkg/registry/core/service/strategy.go): on an update that switches
 * `type`, fields the new type does not use are wiped when the user did not change them
 * (they were allocated or defaulted by the server), so `kubectl apply` of `type: ClusterIP`
 * over a NodePort Service succeeds and its NodePorts go back to the pool. A value the user did
 * change is left for validation to refuse.
 */
export function dropTypeDependentFields(obj: KObject, old: KObject): void {
  const s: Obj = obj.spec ?? {};
  const o: Obj = old.spec ?? {};
  const isNodePortType = (x: Obj) => x.type === 'NodePort' || x.type === 'LoadBalancer';
  if (needsClusterIP(o) && !needsClusterIP(s)) {
    if (s.clusterIP === o.clusterIP && sameJSON(s.clusterIPs, o.clusterIPs)) {
      delete s.clusterIP;
      delete s.clusterIPs;
    }
    if (sameJSON(s.ipFamilies, o.ipFamilies)) delete s.ipFamilies;
    if ((s.ipFamilyPolicy ?? '') === (o.ipFamilyPolicy ?? '')) delete s.ipFamilyPolicy;
  }
  if (isNodePortType(o) && !isNodePortType(s)) {
    const before = nodePortSet(o);
    if ([...nodePortSet(s)].every((n) => before.has(n)))
      for (const p of Array.isArray(s.ports) ? s.ports : []) if (p && typeof p === 'object') delete p.nodePort;
  }
  const needsHC = (x: Obj) => x.type === 'LoadBalancer' && x.externalTrafficPolicy === 'Local';
  if (needsHC(o) && !needsHC(s) && s.healthCheckNodePort === o.healthCheckNodePort) delete s.healthCheckNodePort;
  if (o.type === 'LoadBalancer' && s.type !== 'LoadBalancer') {
    if (
      s.allocateLoadBalancerNodePorts !== undefined &&
      o.allocateLoadBalancerNodePorts !== undefined &&
      s.allocateLoadBalancerNodePorts === o.allocateLoadBalancerNodePorts
    )
      delete s.allocateLoadBalancerNodePorts;
    if (s.loadBalancerClass === o.loadBalancerClass) delete s.loadBalancerClass;
  }
  if (externallyAccessible(o) && !externallyAccessible(s) && s.externalTrafficPolicy === o.externalTrafficPolicy)
    delete s.externalTrafficPolicy;
  if (s.type !== 'LoadBalancer' && obj.status) obj.status = { ...obj.status, loadBalancer: {} };
}

function goServicePortKey(p: Obj): string {
  return `core.ServicePort{Name:"", Protocol:${JSON.stringify(p.protocol ?? '')}, AppProtocol:(*string)(nil), Port:${p.port ?? 0}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`;
}

/** ValidateService (the parts the engine models). */
export function validateServiceSpec(obj: KObject): FieldError[] {
  const s: Obj = obj.spec ?? {};
  const errs: FieldError[] = [];
  const ports: Obj[] = Array.isArray(s.ports) ? s.ports : [];
  const headless = s.clusterIP === 'None';
  if (!TYPES.includes(s.type)) errs.push({ type: 'NotSupported', field: 'spec.type', value: s.type, supported: TYPES });
  if (s.type === 'ExternalName') {
    if (!s.externalName) errs.push({ type: 'Required', field: 'spec.externalName' });
    else
      for (const m of isDNS1123Subdomain(String(s.externalName).replace(/\.$/, '')))
        errs.push({ type: 'Invalid', field: 'spec.externalName', value: s.externalName, detail: m });
  }
  if (ports.length === 0 && !headless && s.type !== 'ExternalName') errs.push({ type: 'Required', field: 'spec.ports' });
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const pp = `spec.ports[${i}]`;
    if (ports.length > 1 && !p.name) errs.push({ type: 'Required', field: `${pp}.name` });
    else if (p.name) {
      for (const m of isDNS1123Label(p.name)) errs.push({ type: 'Invalid', field: `${pp}.name`, value: p.name, detail: m });
      if (names.has(p.name)) errs.push({ type: 'Duplicate', field: `${pp}.name`, value: p.name });
      else names.add(p.name);
    }
    for (const m of isValidPortNum(p.port ?? 0)) errs.push({ type: 'Invalid', field: `${pp}.port`, value: p.port ?? 0, detail: m });
    if (!p.protocol) errs.push({ type: 'Required', field: `${pp}.protocol` });
    else if (!['SCTP', 'TCP', 'UDP'].includes(p.protocol))
      errs.push({ type: 'NotSupported', field: `${pp}.protocol`, value: p.protocol, supported: ['SCTP', 'TCP', 'UDP'] });
    if (typeof p.targetPort === 'number')
      for (const m of isValidPortNum(p.targetPort))
        errs.push({ type: 'Invalid', field: `${pp}.targetPort`, value: p.targetPort, rawValue: goIntOrString(p.targetPort), detail: m });
    else if (typeof p.targetPort === 'string')
      for (const m of isValidPortName(p.targetPort))
        errs.push({ type: 'Invalid', field: `${pp}.targetPort`, value: p.targetPort, rawValue: goIntOrString(p.targetPort), detail: m });
    if (p.appProtocol)
      for (const m of isQualifiedName(p.appProtocol))
        errs.push({ type: 'Invalid', field: `${pp}.appProtocol`, value: p.appProtocol, detail: m });
    if (s.type === 'ClusterIP' && p.nodePort)
      errs.push({ type: 'Forbidden', field: `${pp}.nodePort`, detail: "may not be used when `type` is 'ClusterIP'" });
    if (p.nodePort && (p.nodePort < 30000 || p.nodePort > 32767) && s.type !== 'ClusterIP') {
      errs.push({
        type: 'Invalid',
        field: `${pp}.nodePort`,
        value: p.nodePort,
        detail: 'provided port is not in the valid range. The range of valid ports is 30000-32767',
      });
    }
  });
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${p.protocol}/${p.port}`;
    if (seen.has(key)) errs.push({ type: 'Duplicate', field: `spec.ports[${i}]`, value: key, rawValue: goServicePortKey(p) });
    seen.add(key);
  });
  errs.push(...validateLabels(s.selector, 'spec.selector'));
  if (s.sessionAffinity && !['ClientIP', 'None'].includes(s.sessionAffinity))
    errs.push({ type: 'NotSupported', field: 'spec.sessionAffinity', value: s.sessionAffinity, supported: ['ClientIP', 'None'] });
  if (s.clusterIP && s.clusterIP !== 'None' && !isIPv4(s.clusterIP)) {
    errs.push({
      type: 'Invalid',
      field: 'spec.clusterIPs[0]',
      value: s.clusterIP,
      detail: 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    });
  }
  if (s.externalTrafficPolicy && !['Cluster', 'Local'].includes(s.externalTrafficPolicy))
    errs.push({
      type: 'NotSupported',
      field: 'spec.externalTrafficPolicy',
      value: s.externalTrafficPolicy,
      supported: ['Cluster', 'Local'],
    });
  return errs;
}

function inServiceCIDR(ip: string): boolean {
  if (!isIPv4(ip)) return false;
  const [a, b] = ip.split('.').map(Number);
  return a === 10 && b >= 96 && b <= 111;
}

/** Allocates ClusterIPs and NodePorts for a new Service; returns field errors when a requested one is unavailable. */
function allocate(obj: KObject, ctx: StrategyContext): FieldError[] {
  const s: Obj = obj.spec;
  const errs: FieldError[] = [];
  if (needsClusterIP(s)) {
    if (s.clusterIP === 'None') s.clusterIPs = ['None'];
    else if (s.clusterIP) {
      const ip = s.clusterIP;
      const raw = `[]string{${JSON.stringify(ip)}}`;
      if (!inServiceCIDR(ip))
        errs.push({
          type: 'Invalid',
          field: 'spec.clusterIPs',
          value: [ip],
          rawValue: raw,
          detail: `failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is 10.96.0.0/12`,
        });
      else if (ctx.reserveClusterIP && !ctx.reserveClusterIP(ip))
        errs.push({
          type: 'Invalid',
          field: 'spec.clusterIPs',
          value: [ip],
          rawValue: raw,
          detail: `failed to allocate IP ${ip}: provided IP is already allocated`,
        });
      else s.clusterIPs = [ip];
    } else {
      s.clusterIP = ctx.allocateClusterIP();
      s.clusterIPs = [s.clusterIP];
    }
    if (!s.ipFamilies) s.ipFamilies = ['IPv4'];
    if (!s.ipFamilyPolicy) s.ipFamilyPolicy = 'SingleStack';
  }
  if (needsNodePorts(s)) {
    (s.ports ?? []).forEach((p: Obj, i: number) => {
      if (p.nodePort) {
        if (ctx.reserveNodePort && !ctx.reserveNodePort(p.nodePort))
          errs.push({
            type: 'Invalid',
            field: `spec.ports[${i}].nodePort`,
            value: p.nodePort,
            detail: 'provided port is already allocated',
          });
      } else p.nodePort = ctx.allocateNodePort();
    });
  }
  return errs;
}

function release(obj: KObject, ctx: StrategyContext): void {
  const s: Obj = obj.spec ?? {};
  for (const ip of s.clusterIPs ?? (s.clusterIP ? [s.clusterIP] : [])) if (ip && ip !== 'None') ctx.releaseClusterIP(ip);
  for (const p of s.ports ?? []) if (p?.nodePort) ctx.releaseNodePort?.(p.nodePort);
}

/** The services strategy. */
export const serviceStrategy: Strategy = {
  hasStatus: true,
  prepareForCreate(obj) {
    checkMetaTypes(obj);
    checkStringMapSelector(obj);
    obj.status = { loadBalancer: {} };
  },
  defaults: defaultService,
  prepareForUpdate(obj, old) {
    checkMetaTypes(obj);
    const s: Obj = (obj.spec = obj.spec ?? {});
    const o: Obj = old.spec ?? {};
    defaultService(obj);
    dropTypeDependentFields(obj, old);
    if (needsClusterIP(o) && needsClusterIP(s)) {
      if (!s.clusterIP) s.clusterIP = o.clusterIP;
      if (!s.clusterIPs?.length) s.clusterIPs = o.clusterIPs;
      if (!s.ipFamilies) s.ipFamilies = o.ipFamilies;
      if (!s.ipFamilyPolicy) s.ipFamilyPolicy = o.ipFamilyPolicy;
    }
    if (needsNodePorts(o) && needsNodePorts(s)) {
      for (const p of s.ports ?? []) {
        if (p.nodePort) continue;
        const prev = (o.ports ?? []).find((q: Obj) => q.port === p.port && q.protocol === p.protocol);
        if (prev?.nodePort) p.nodePort = prev.nodePort;
      }
    }
  },
  validate(obj, ctx) {
    const errs = [...validateObjectMeta(obj, true, nameIsDNS1035Label), ...validateServiceSpec(obj)];
    // allocation happens once the object is otherwise valid (upstream releases on failure)
    const exists = ctx.getObject('services', obj.metadata.namespace ?? '', obj.metadata.name);
    if (errs.length === 0 && !exists) errs.push(...allocate(obj, ctx));
    return errs;
  },
  validateUpdate(obj, old, ctx) {
    const errs = validateObjectMeta(obj, true, nameIsDNS1035Label);
    const s: Obj = obj.spec;
    const o: Obj = old.spec ?? {};
    if (needsClusterIP(s) && needsClusterIP(o) && o.clusterIPs?.length && s.clusterIPs?.[0] !== o.clusterIPs[0]) {
      errs.push({
        type: 'Invalid',
        field: 'spec.clusterIPs[0]',
        value: s.clusterIPs,
        rawValue: `[]string{${(s.clusterIPs ?? []).map((x: string) => JSON.stringify(x)).join(', ')}}`,
        detail: 'may not change once set',
      });
    }
    errs.push(...validateServiceSpec(obj));
    if (errs.length === 0) {
      // newly needed allocations (type changed to NodePort, or a port was added)
      if (needsClusterIP(s) && !s.clusterIP) {
        s.clusterIP = ctx.allocateClusterIP();
        s.clusterIPs = [s.clusterIP];
        s.ipFamilies = s.ipFamilies ?? ['IPv4'];
        s.ipFamilyPolicy = s.ipFamilyPolicy ?? 'SingleStack';
      }
      if (needsNodePorts(s)) {
        for (const p of s.ports ?? []) {
          const had = (o.ports ?? []).some((q: Obj) => q.nodePort === p.nodePort && p.nodePort);
          if (!p.nodePort) p.nodePort = ctx.allocateNodePort();
          else if (!had) ctx.reserveNodePort?.(p.nodePort);
        }
      }
      // a ClusterIP no longer used (type changed to ExternalName) goes back to the pool
      if (!needsClusterIP(s))
        for (const ip of o.clusterIPs ?? (o.clusterIP ? [o.clusterIP] : [])) if (ip && ip !== 'None') ctx.releaseClusterIP(ip);
      // ports no longer used go back to the pool
      for (const q of o.ports ?? []) {
        if (q.nodePort && !(needsNodePorts(s) && (s.ports ?? []).some((p: Obj) => p.nodePort === q.nodePort)))
          ctx.releaseNodePort?.(q.nodePort);
      }
    }
    return errs;
  },
  afterDelete: release,
};

function checkStringMapSelector(obj: KObject): void {
  checkStringMap(obj, obj.spec?.selector, 'ServiceSpec', 'spec.selector');
}

/**
 * Strategies of the other core/v1 kinds: Namespace (pkg/registry/core/namespace/strategy.go),
 * Node (pkg/registry/core/node/strategy.go), ConfigMap, Secret (incl. the stringData
 * conversion of pkg/apis/core/v1/conversion.go), ServiceAccount, Event, Endpoints,
 * with validation from pkg/apis/core/validation/validation.go.
 */
import { newBadRequest, type FieldError } from '../../api/errors';
import { deepEqual, type KObject } from '../../api/types';
import type { Strategy } from './strategy';
import {
  checkMetaTypes,
  checkStringMap,
  decodeError,
  jsonType,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  nameIsPathSegment,
  validateObjectMeta,
} from './validation/meta';
import { isConfigMapKey, isDNS1123Label, isQualifiedName, isValidLabelValue } from '../../api/validation/names';
import { getOwn, hasOwn, setOwn } from '../../api/safe-object';
import { defaultResourceList } from './pod-defaults';
import { base64StdText } from '../../util/base64';

type Obj = Record<string, any>;

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** UTF-8 → standard base64 (encoding/base64.StdEncoding). */
export const base64Encode = base64StdText;

/**
 * Checks a base64 string as encoding/base64.StdEncoding.DecodeString does; returns the
 * byte offset Go reports in "illegal base64 data at input byte N", or -1 when valid.
 */
export function base64Invalid(s: string): number {
  const t = s.replace(/[\r\n]/g, '');
  for (let i = 0; i < t.length; i++) {
    const ch = t[i];
    if (ch === '=') {
      const rest = t.slice(i);
      const q = i % 4;
      if (!(q >= 2 && (rest === '=' ? q === 3 : rest === '==' && q === 2))) return i;
      return -1;
    }
    if (!B64.includes(ch)) return i;
  }
  return t.length % 4 === 0 ? -1 : t.length - (t.length % 4);
}

function validateDataKeys(obj: KObject, field: 'data' | 'binaryData', seen: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of Object.keys(obj[field] ?? {}).sort()) {
    for (const m of isConfigMapKey(k)) errs.push({ type: 'Invalid', field: `${field}[${k}]`, value: k, detail: m });
    if (seen.has(k)) errs.push({ type: 'Invalid', field: `${field}[${k}]`, value: k, detail: 'duplicate of key present in data' });
    seen.add(k);
  }
  return errs;
}

function dataSize(obj: KObject): number {
  let n = 0;
  for (const v of Object.values(obj.data ?? {})) n += String(v).length;
  for (const v of Object.values(obj.binaryData ?? {})) n += Math.floor((String(v).length * 3) / 4);
  return n;
}

function immutableData(obj: KObject, old: KObject): FieldError[] {
  const errs: FieldError[] = [];
  if (old.immutable === true) {
    if (obj.immutable !== true) errs.push({ type: 'Forbidden', field: 'immutable', detail: 'field is immutable when `immutable` is set' });
    if (!deepEqual(obj.data ?? {}, old.data ?? {}))
      errs.push({ type: 'Forbidden', field: 'data', detail: 'field is immutable when `immutable` is set' });
    if (!deepEqual(obj.binaryData ?? {}, old.binaryData ?? {}))
      errs.push({ type: 'Forbidden', field: 'binaryData', detail: 'field is immutable when `immutable` is set' });
  }
  return errs;
}

const configMapStrategy: Strategy = {
  prepareForCreate(obj) {
    checkMetaTypes(obj);
    checkStringMap(obj, obj.data, 'ConfigMap', 'data');
  },
  prepareForUpdate(obj) {
    checkMetaTypes(obj);
    checkStringMap(obj, obj.data, 'ConfigMap', 'data');
  },
  validate(obj) {
    const seen = new Set<string>();
    const errs = [
      ...validateObjectMeta(obj, true, nameIsDNSSubdomain),
      ...validateDataKeys(obj, 'data', seen),
      ...validateDataKeys(obj, 'binaryData', seen),
    ];
    if (dataSize(obj) > 1024 * 1024) errs.push({ type: 'TooLong', field: '', detail: 'must have at most 1048576 bytes' });
    return errs;
  },
  validateUpdate(obj, old, ctx) {
    return [...configMapStrategy.validate!(obj, ctx), ...immutableData(obj, old)];
  },
};

const SECRET_REQUIRED_KEYS: Record<string, string[]> = {
  'kubernetes.io/dockercfg': ['.dockercfg'],
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
};

/** Secret conversion: stringData overwrites data (base64-encoded) and disappears; data must be base64. */
function convertSecret(obj: KObject): void {
  checkMetaTypes(obj);
  if (obj.stringData === null) delete obj.stringData; // JSON null: Go's nil map
  if (obj.stringData !== undefined) {
    checkStringMap(obj, obj.stringData, 'Secret', 'stringData');
    obj.data = obj.data ?? {};
    for (const [k, v] of Object.entries(obj.stringData as Record<string, string>)) setOwn(obj.data, k, base64Encode(v));
    delete obj.stringData;
  }
  if (obj.data !== undefined && obj.data !== null) {
    if (typeof obj.data !== 'object' || Array.isArray(obj.data))
      throw decodeError(obj, jsonType(obj.data), 'Secret', 'data', 'map[string][]uint8');
    for (const v of Object.values(obj.data)) {
      if (typeof v !== 'string') throw decodeError(obj, jsonType(v), 'Secret', 'data', '[]uint8');
      const bad = base64Invalid(v);
      if (bad >= 0) throw newBadRequest(`Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte ${bad}`);
    }
  }
}

const secretStrategy: Strategy = {
  prepareForCreate: convertSecret,
  prepareForUpdate: convertSecret,
  defaults(obj) {
    if (!obj.type) obj.type = 'Opaque';
  },
  validate(obj) {
    const seen = new Set<string>();
    const errs = [...validateObjectMeta(obj, true, nameIsDNSSubdomain), ...validateDataKeys(obj, 'data', seen)];
    for (const k of getOwn(SECRET_REQUIRED_KEYS, obj.type) ?? [])
      if (!hasOwn(obj.data, k)) errs.push({ type: 'Required', field: `data[${k}]` });
    if (obj.type === 'kubernetes.io/service-account-token' && !obj.metadata.annotations?.['kubernetes.io/service-account.name']) {
      errs.push({ type: 'Required', field: 'metadata.annotations[kubernetes.io/service-account.name]' });
    }
    if (dataSize(obj) > 1024 * 1024) errs.push({ type: 'TooLong', field: 'data', detail: 'must have at most 1048576 bytes' });
    return errs;
  },
  validateUpdate(obj, old, ctx) {
    const errs = secretStrategy.validate!(obj, ctx);
    if (obj.type !== old.type) errs.push({ type: 'Invalid', field: 'type', value: obj.type, detail: 'field is immutable' });
    return [...errs, ...immutableData(obj, old)];
  },
};

const namespaceStrategy: Strategy = {
  hasStatus: true,
  prepareForCreate(obj) {
    checkMetaTypes(obj);
    obj.status = { phase: 'Active' };
    obj.spec = obj.spec ?? {};
    const f: string[] = Array.isArray(obj.spec.finalizers) ? obj.spec.finalizers : [];
    if (!f.includes('kubernetes')) f.push('kubernetes');
    obj.spec.finalizers = f;
  },
  prepareForUpdate(obj, old) {
    checkMetaTypes(obj);
    obj.spec = { ...(obj.spec ?? {}), finalizers: old.spec?.finalizers };
    if (obj.spec.finalizers === undefined) delete obj.spec.finalizers;
  },
  defaults(obj) {
    if (obj.metadata.name) obj.metadata.labels = { ...(obj.metadata.labels ?? {}), 'kubernetes.io/metadata.name': obj.metadata.name };
  },
  validate(obj) {
    const errs = validateObjectMeta(obj, false, nameIsDNSLabel);
    for (const [i, f] of (obj.spec?.finalizers ?? []).entries()) {
      if (!String(f).includes('/') && f !== 'kubernetes')
        errs.push({
          type: 'Invalid',
          field: `spec.finalizers[${i}]`,
          value: f,
          detail: 'name is neither a standard finalizer name nor is it fully qualified',
        });
    }
    return errs;
  },
};

export function validateTaints(taints: Obj[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (taints ?? []).forEach((t, i) => {
    const ip = `${path}[${i}]`;
    for (const m of isQualifiedName(t.key ?? '')) errs.push({ type: 'Invalid', field: `${ip}.key`, value: t.key ?? '', detail: m });
    if (t.value)
      for (const m of isValidLabelValue(t.value)) errs.push({ type: 'Invalid', field: `${ip}.value`, value: t.value, detail: m });
    if (!t.effect) errs.push({ type: 'Required', field: `${ip}.effect` });
    else if (!['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect))
      errs.push({
        type: 'NotSupported',
        field: `${ip}.effect`,
        value: t.effect,
        supported: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'],
      });
    const key = `${t.key}:${t.effect}`;
    if (seen.has(key))
      errs.push({
        type: 'Duplicate',
        field: path,
        value: `${t.key}=${t.value ?? ''}:${t.effect}`,
        detail: 'taints must be unique by key and effect pair',
      });
    seen.add(key);
  });
  return errs;
}

const nodeStrategy: Strategy = {
  hasStatus: true,
  prepareForCreate(obj) {
    checkMetaTypes(obj);
    if (obj.spec) delete obj.spec.configSource;
  },
  defaults(obj) {
    obj.spec = obj.spec ?? {};
    const st = obj.status;
    if (st && typeof st === 'object' && st.capacity && !st.allocatable) st.allocatable = { ...st.capacity };
    // status.capacity/allocatable are not canonicalized here: the status is the kubelet's
    // (status writes), and a spec update (cordon) must not rewrite it
  },
  validate(obj) {
    return [...validateObjectMeta(obj, false, nameIsDNSSubdomain), ...validateTaints(obj.spec?.taints, 'spec.taints')];
  },
  validateUpdate(obj, old) {
    const errs = [...validateObjectMeta(obj, false, nameIsDNSSubdomain), ...validateTaints(obj.spec?.taints, 'spec.taints')];
    if (old.spec?.podCIDR && obj.spec?.podCIDR !== old.spec.podCIDR)
      errs.push({ type: 'Forbidden', field: 'spec.podCIDR', detail: 'node updates may not change podCIDR except from "" to valid' });
    if (old.spec?.providerID && obj.spec?.providerID !== old.spec.providerID)
      errs.push({ type: 'Forbidden', field: 'spec.providerID', detail: 'node updates may not change providerID except from "" to valid' });
    return errs;
  },
};

const simpleNamespaced = (nameFn = nameIsDNSSubdomain): Strategy => ({
  prepareForCreate: checkMetaTypes,
  prepareForUpdate: checkMetaTypes,
  validate: (obj) => validateObjectMeta(obj, true, nameFn),
  validateUpdate: (obj) => validateObjectMeta(obj, true, nameFn),
});

/**
 * ResourceQuota (pkg/registry/core/resourcequota/strategy.go): PrepareForCreate resets the
 * status to ResourceQuotaStatus{} (printed `status: {}`), updates keep it (status
 * subresource); the ResourceLists are defaulted (SetDefaults_ResourceList: spec.hard,
 * status.hard, status.used). Validation is the object meta's only.
 */
const resourceQuotaStrategy: Strategy = {
  ...simpleNamespaced(),
  hasStatus: true,
  prepareForCreate(obj) {
    checkMetaTypes(obj);
    obj.status = {};
  },
  defaults(obj) {
    defaultResourceList(obj.spec?.hard);
    defaultResourceList(obj.status?.hard);
    defaultResourceList(obj.status?.used);
  },
};

const eventStrategy: Strategy = {
  prepareForCreate: checkMetaTypes,
  validate(obj) {
    const errs = validateObjectMeta(obj, true, nameIsDNSSubdomain);
    const io = obj.involvedObject ?? {};
    if (io.namespace && obj.metadata.namespace && io.namespace !== obj.metadata.namespace) {
      errs.push({ type: 'Invalid', field: 'involvedObject.namespace', value: io.namespace, detail: 'does not match event.namespace' });
    }
    return errs;
  },
};

const endpointsStrategy: Strategy = {
  prepareForCreate: checkMetaTypes,
  validate(obj) {
    const errs = validateObjectMeta(obj, true, nameIsDNS1035OrSubdomain);
    for (const [i, s] of (obj.subsets ?? []).entries()) {
      for (const [j, p] of (s.ports ?? []).entries())
        if (p.name)
          for (const m of isDNS1123Label(p.name))
            errs.push({ type: 'Invalid', field: `subsets[${i}].ports[${j}].name`, value: p.name, detail: m });
    }
    return errs;
  },
};

function nameIsDNS1035OrSubdomain(n: string, prefix: boolean): string[] {
  return nameIsDNSSubdomain(n, prefix);
}

/** Core-group strategies other than pods, services and storage. */
export const coreStrategies: Record<string, Strategy> = {
  namespaces: namespaceStrategy,
  nodes: nodeStrategy,
  configmaps: configMapStrategy,
  secrets: secretStrategy,
  serviceaccounts: simpleNamespaced(),
  events: eventStrategy,
  endpoints: endpointsStrategy,
  limitranges: simpleNamespaced(),
  resourcequotas: resourceQuotaStrategy,
  podtemplates: simpleNamespaced(),
  'leases.coordination.k8s.io': simpleNamespaced(),
  'endpointslices.discovery.k8s.io': {
    ...simpleNamespaced(),
    validate(obj) {
      const errs = validateObjectMeta(obj, true, nameIsDNSSubdomain);
      if (!obj.addressType) errs.push({ type: 'Required', field: 'addressType' });
      else if (!['IPv4', 'IPv6', 'FQDN'].includes(obj.addressType))
        errs.push({ type: 'NotSupported', field: 'addressType', value: obj.addressType, supported: ['IPv4', 'IPv6', 'FQDN'] });
      return errs;
    },
  },
  'events.events.k8s.io': simpleNamespaced(),
  'roles.rbac.authorization.k8s.io': simpleNamespaced(nameIsPathSegment),
  'rolebindings.rbac.authorization.k8s.io': simpleNamespaced(nameIsPathSegment),
};

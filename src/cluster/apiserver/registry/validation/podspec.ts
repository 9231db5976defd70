/**
 * PodSpec validation, as pkg/apis/core/validation/validation.go (ValidatePodSpec,
 * validateContainers, validateContainerCommon, validateContainerPorts, ValidateEnv,
 * ValidateVolumes, ValidateVolumeMounts, validateProbe, ValidateContainerResources,
 * ValidateTolerations, validateRestartPolicy, validateDNSPolicy…), with upstream field
 * paths and messages. Used for Pods and every pod template.
 */
import { newBadRequest, type FieldError } from '../../../api/errors';
import type { KObject } from '../../../api/types';
import { VOLUME_SOURCE_KEYS } from '../pod-defaults';
import { isQuantity, parseQuantity, QUANTITY_FORMAT_ERROR } from '../quantity';
import { validateAnnotations, validateLabels, nonNegative, nameIsDNSSubdomain } from './meta';
import {
  isConfigMapKey,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isRelaxedEnvVarName,
  isValidLabelValue,
  isValidPortName,
  isValidPortNum,
  inclusiveRangeError,
} from '../../../api/validation/names';

type Obj = Record<string, any>;

const sortedProtocols = ['SCTP', 'TCP', 'UDP'];

function dns1123Label(v: string, path: string): FieldError[] {
  return isDNS1123Label(v).map((m) => ({ type: 'Invalid' as const, field: path, value: v, detail: m }));
}

/**
 * Rejects quantities the decoder would not parse (400, before validation), as
 * resource.Quantity's UnmarshalJSON does.
 */
export function checkPodSpecDecode(obj: KObject, spec: Obj | undefined): void {
  if (!spec || typeof spec !== 'object') return;
  const v = obj.apiVersion.includes('/') ? obj.apiVersion.split('/')[1] : obj.apiVersion;
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
    for (const k of ['requests', 'limits']) {
      const rl = c?.resources?.[k];
      if (!rl || typeof rl !== 'object') continue;
      for (const q of Object.values(rl)) {
        if (!isQuantity(q))
          throw newBadRequest(`${obj.kind} in version "${v}" cannot be handled as a ${obj.kind}: ${QUANTITY_FORMAT_ERROR}`);
      }
    }
  }
}

function validatePorts(ports: Obj[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (ports ?? []).forEach((p, i) => {
    const ip = `${path}[${i}]`;
    if (p.name) {
      const msgs = isValidPortName(p.name);
      if (msgs.length) for (const m of msgs) errs.push({ type: 'Invalid', field: `${ip}.name`, value: p.name, detail: m });
      else if (names.has(p.name)) errs.push({ type: 'Duplicate', field: `${ip}.name`, value: p.name });
      else names.add(p.name);
    }
    if (!p.containerPort) errs.push({ type: 'Required', field: `${ip}.containerPort` });
    else
      for (const m of isValidPortNum(p.containerPort))
        errs.push({ type: 'Invalid', field: `${ip}.containerPort`, value: p.containerPort, detail: m });
    if (p.hostPort)
      for (const m of isValidPortNum(p.hostPort)) errs.push({ type: 'Invalid', field: `${ip}.hostPort`, value: p.hostPort, detail: m });
    if (!p.protocol) errs.push({ type: 'Required', field: `${ip}.protocol` });
    else if (!sortedProtocols.includes(p.protocol))
      errs.push({ type: 'NotSupported', field: `${ip}.protocol`, value: p.protocol, supported: sortedProtocols });
  });
  return errs;
}

/**
 * ValidateEnv + validateEnvVarValueFrom (pkg/apis/core/validation/validation.go): each source's own
 * errors first (a configMapKeyRef / secretKeyRef name is NameIsDNSSubdomain, so an empty one is
 * Invalid ""; its key Required or IsConfigMapKey), then one of: no source, a source beside `value`,
 * more than one source.
 */
function validateEnv(env: Obj[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (env ?? []).forEach((e, i) => {
    const ip = `${path}[${i}]`;
    if (!e.name) errs.push({ type: 'Required', field: `${ip}.name` });
    for (const m of isRelaxedEnvVarName(e.name ?? '')) errs.push({ type: 'Invalid', field: `${ip}.name`, value: e.name ?? '', detail: m });
    const vf = e.valueFrom;
    if (vf && typeof vf === 'object') {
      const vp = `${ip}.valueFrom`;
      const n = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'].filter((k) => vf[k]).length;
      if (vf.fieldRef && !vf.fieldRef.fieldPath) errs.push({ type: 'Required', field: `${vp}.fieldRef.fieldPath` });
      for (const k of ['configMapKeyRef', 'secretKeyRef']) {
        const ref = vf[k];
        if (!ref) continue;
        // validateConfigMapKeySelector / validateSecretKeySelector: ValidateSecretName(name, false)
        const name = typeof ref.name === 'string' ? ref.name : '';
        for (const m of nameIsDNSSubdomain(name, false)) errs.push({ type: 'Invalid', field: `${vp}.${k}.name`, value: name, detail: m });
        if (!ref.key) errs.push({ type: 'Required', field: `${vp}.${k}.key` });
        else for (const m of isConfigMapKey(ref.key)) errs.push({ type: 'Invalid', field: `${vp}.${k}.key`, value: ref.key, detail: m });
      }
      if (n === 0)
        errs.push({
          type: 'Invalid',
          field: vp,
          value: '',
          detail: 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
        });
      else if (e.value) errs.push({ type: 'Invalid', field: vp, value: '', detail: 'may not be specified when `value` is not empty' });
      else if (n > 1) errs.push({ type: 'Invalid', field: vp, value: '', detail: 'may not have more than one field specified at a time' });
    }
  });
  return errs;
}

/**
 * ValidateEnvFrom (validation.go): a prefix is IsRelaxedEnvVarName; configMapRef / secretRef
 * (validateConfigMapEnvSource / validateSecretEnvSource) need a name (Required when empty, else
 * ValidateConfigMapName / ValidateSecretName with prefix true); exactly one of them, else an Invalid
 * on the envFrom list itself (upstream reports it at fldPath, not the entry).
 */
function validateEnvFrom(envFrom: Obj[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (Array.isArray(envFrom) ? envFrom : []).forEach((ev, i) => {
    if (!ev || typeof ev !== 'object') return;
    const ip = `${path}[${i}]`;
    if (typeof ev.prefix === 'string' && ev.prefix.length > 0)
      for (const m of isRelaxedEnvVarName(ev.prefix)) errs.push({ type: 'Invalid', field: `${ip}.prefix`, value: ev.prefix, detail: m });
    let n = 0;
    for (const k of ['configMapRef', 'secretRef']) {
      const ref = ev[k];
      if (ref === undefined || ref === null) continue;
      n++;
      const name = typeof ref?.name === 'string' ? ref.name : '';
      if (!name) errs.push({ type: 'Required', field: `${ip}.${k}.name` });
      else for (const m of nameIsDNSSubdomain(name, true)) errs.push({ type: 'Invalid', field: `${ip}.${k}.name`, value: name, detail: m });
    }
    if (n === 0) errs.push({ type: 'Invalid', field: path, value: '', detail: 'must specify one of: `configMapRef` or `secretRef`' });
    else if (n > 1) errs.push({ type: 'Invalid', field: path, value: '', detail: 'may not have more than one field specified at a time' });
  });
  return errs;
}

function validateHandler(h: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const kinds = ['exec', 'httpGet', 'tcpSocket', 'grpc', 'sleep'].filter((k) => h[k] !== undefined && h[k] !== null);
  if (kinds.length === 0) return [{ type: 'Required', field: path, detail: 'must specify a handler type' }];
  if (kinds.length > 1) errs.push({ type: 'Forbidden', field: `${path}.${kinds[1]}`, detail: 'may not specify more than 1 handler type' });
  if (h.exec && !(h.exec.command?.length > 0)) errs.push({ type: 'Required', field: `${path}.exec.command` });
  for (const k of ['httpGet', 'tcpSocket']) {
    const a = h[k];
    if (!a) continue;
    if (a.port === undefined || a.port === '' || a.port === 0) errs.push({ type: 'Required', field: `${path}.${k}.port` });
    else if (typeof a.port === 'number')
      for (const m of isValidPortNum(a.port)) errs.push({ type: 'Invalid', field: `${path}.${k}.port`, value: a.port, detail: m });
    else
      for (const m of isValidPortName(String(a.port))) errs.push({ type: 'Invalid', field: `${path}.${k}.port`, value: a.port, detail: m });
  }
  if (h.httpGet?.scheme && !['HTTP', 'HTTPS'].includes(h.httpGet.scheme))
    errs.push({ type: 'NotSupported', field: `${path}.httpGet.scheme`, value: h.httpGet.scheme, supported: ['HTTP', 'HTTPS'] });
  if (h.grpc)
    for (const m of isValidPortNum(h.grpc.port)) errs.push({ type: 'Invalid', field: `${path}.grpc.port`, value: h.grpc.port, detail: m });
  return errs;
}

function validateProbe(p: Obj | undefined, path: string, which: 'liveness' | 'readiness' | 'startup'): FieldError[] {
  if (!p || typeof p !== 'object') return [];
  const errs = validateHandler(p, path);
  for (const k of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'])
    errs.push(...nonNegative(p[k], `${path}.${k}`));
  if (p.terminationGracePeriodSeconds !== undefined && p.terminationGracePeriodSeconds <= 0) {
    errs.push({
      type: 'Invalid',
      field: `${path}.terminationGracePeriodSeconds`,
      value: p.terminationGracePeriodSeconds,
      detail: 'must be greater than 0',
    });
  }
  if (which !== 'readiness' && p.successThreshold !== undefined && p.successThreshold !== 1) {
    errs.push({ type: 'Invalid', field: `${path}.successThreshold`, value: p.successThreshold, detail: 'must be 1' });
  }
  if (which === 'readiness' && p.terminationGracePeriodSeconds !== undefined) {
    errs.push({
      type: 'Invalid',
      field: `${path}.terminationGracePeriodSeconds`,
      value: p.terminationGracePeriodSeconds,
      detail: 'must not be set for readinessProbes',
    });
  }
  return errs;
}

const STANDARD_CONTAINER_RESOURCES = ['cpu', 'memory', 'ephemeral-storage'];

function isExtended(name: string): boolean {
  return !name.startsWith('kubernetes.io/') && name.includes('/') && !name.startsWith('requests.');
}

function validateResources(r: Obj | undefined, path: string): FieldError[] {
  if (!r || typeof r !== 'object') return [];
  const errs: FieldError[] = [];
  const lim: Obj = r.limits ?? {};
  const req: Obj = r.requests ?? {};
  for (const [kind, list] of [
    ['limits', lim],
    ['requests', req],
  ] as const) {
    for (const name of Object.keys(list).sort()) {
      const p = `${path}.${kind}[${name}]`;
      if (!STANDARD_CONTAINER_RESOURCES.includes(name) && !name.startsWith('hugepages-') && !isExtended(name)) {
        const msgs = isQualifiedName(name);
        if (msgs.length) for (const m of msgs) errs.push({ type: 'Invalid', field: p, value: name, detail: m });
        else errs.push({ type: 'Invalid', field: p, value: name, detail: 'must be a standard resource for containers' });
        continue;
      }
      const v = parseQuantity(list[name]);
      if (v !== undefined && v < 0)
        errs.push({ type: 'Invalid', field: p, value: String(list[name]), detail: 'must be greater than or equal to 0' });
    }
  }
  for (const name of Object.keys(req).sort()) {
    const p = `${path}.requests[${name}]`;
    const rq = parseQuantity(req[name]);
    const lq = name in lim ? parseQuantity(lim[name]) : undefined;
    if (isExtended(name)) {
      if (lq === undefined)
        errs.push({ type: 'Required', field: `${path}.limits[${name}]`, detail: 'Limit must be set for non overcommitable resources' });
      else if (rq !== lq)
        errs.push({ type: 'Invalid', field: p, value: String(req[name]), detail: `must be equal to ${name} limit of ${lim[name]}` });
    } else if (lq !== undefined && rq !== undefined && rq > lq) {
      errs.push({
        type: 'Invalid',
        field: p,
        value: String(req[name]),
        detail: `must be less than or equal to ${name} limit of ${lim[name]}`,
      });
    }
  }
  return errs;
}

function validateVolumeMounts(mounts: Obj[] | undefined, volumes: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const points = new Set<string>();
  (mounts ?? []).forEach((m, i) => {
    const ip = `${path}[${i}]`;
    if (!m.name) errs.push({ type: 'Required', field: `${ip}.name` });
    if (!volumes.has(m.name)) errs.push({ type: 'NotFound', field: `${ip}.name`, value: m.name ?? '' });
    if (!m.mountPath) errs.push({ type: 'Required', field: `${ip}.mountPath` });
    if (points.has(m.mountPath)) errs.push({ type: 'Invalid', field: `${ip}.mountPath`, value: m.mountPath, detail: 'must be unique' });
    points.add(m.mountPath);
  });
  return errs;
}

function validateContainer(c: Obj, path: string, volumes: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  if (!c.name) errs.push({ type: 'Required', field: `${path}.name` });
  else errs.push(...dns1123Label(c.name, `${path}.name`));
  if (!c.image) errs.push({ type: 'Required', field: `${path}.image` });
  const tmp = c.terminationMessagePolicy;
  if (!tmp) errs.push({ type: 'Required', field: `${path}.terminationMessagePolicy` });
  else if (tmp !== 'File' && tmp !== 'FallbackToLogsOnError')
    errs.push({
      type: 'NotSupported',
      field: `${path}.terminationMessagePolicy`,
      value: tmp,
      supported: ['File', 'FallbackToLogsOnError'],
    });
  errs.push(...validatePorts(c.ports, `${path}.ports`));
  errs.push(...validateEnv(c.env, `${path}.env`));
  errs.push(...validateEnvFrom(c.envFrom, `${path}.envFrom`));
  errs.push(...validateVolumeMounts(c.volumeMounts, volumes, `${path}.volumeMounts`));
  const pp = c.imagePullPolicy;
  if (!pp) errs.push({ type: 'Required', field: `${path}.imagePullPolicy` });
  else if (!['Always', 'IfNotPresent', 'Never'].includes(pp))
    errs.push({ type: 'NotSupported', field: `${path}.imagePullPolicy`, value: pp, supported: ['Always', 'IfNotPresent', 'Never'] });
  errs.push(...validateResources(c.resources, `${path}.resources`));
  return errs;
}

function validateVolumes(vols: Obj[] | undefined, path: string): [Set<string>, FieldError[]] {
  const names = new Set<string>();
  const errs: FieldError[] = [];
  (vols ?? []).forEach((v, i) => {
    const ip = `${path}[${i}]`;
    const el: FieldError[] = [];
    const srcs = VOLUME_SOURCE_KEYS.filter((k) => v[k] !== undefined && v[k] !== null);
    if (srcs.length === 0) el.push({ type: 'Required', field: ip, detail: 'must specify a volume type' });
    else if (srcs.length > 1) el.push({ type: 'Forbidden', field: `${ip}.${srcs[1]}`, detail: 'may not specify more than 1 volume type' });
    if (v.persistentVolumeClaim && !v.persistentVolumeClaim.claimName)
      el.push({ type: 'Required', field: `${ip}.persistentVolumeClaim.claimName` });
    if (v.configMap && !v.configMap.name) el.push({ type: 'Required', field: `${ip}.configMap.name` });
    if (v.secret && !v.secret.secretName) el.push({ type: 'Required', field: `${ip}.secret.secretName` });
    if (v.hostPath && !v.hostPath.path) el.push({ type: 'Required', field: `${ip}.hostPath.path` });
    if (
      v.hostPath?.type &&
      !['', 'DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice'].includes(v.hostPath.type)
    ) {
      el.push({
        type: 'NotSupported',
        field: `${ip}.hostPath.type`,
        value: v.hostPath.type,
        supported: ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'],
      });
    }
    if (!v.name) el.push({ type: 'Required', field: `${ip}.name` });
    else el.push(...dns1123Label(v.name, `${ip}.name`));
    if (names.has(v.name)) el.push({ type: 'Duplicate', field: `${ip}.name`, value: v.name });
    if (el.length === 0) names.add(v.name);
    else errs.push(...el);
  });
  return [names, errs];
}

/** ValidateTolerations. */
export function validateTolerations(ts: Obj[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (ts ?? []).forEach((t, i) => {
    const ip = `${path}[${i}]`;
    if (t.key) for (const m of isQualifiedName(t.key)) errs.push({ type: 'Invalid', field: `${ip}.key`, value: t.key, detail: m });
    if (!t.key && t.operator !== 'Exists')
      errs.push({
        type: 'Invalid',
        field: `${ip}.operator`,
        value: t.operator ?? '',
        detail: 'operator must be Exists when `key` is empty, which means "match all values and all keys"',
      });
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && t.effect !== 'NoExecute') {
      errs.push({
        type: 'Invalid',
        field: `${ip}.effect`,
        value: t.effect ?? '',
        detail: "effect must be 'NoExecute' when `tolerationSeconds` is set",
      });
    }
    if (!t.operator || t.operator === 'Equal') {
      for (const m of isValidLabelValue(t.value ?? ''))
        errs.push({ type: 'Invalid', field: `${ip}.operator`, value: t.value ?? '', detail: m });
    } else if (t.operator === 'Exists') {
      if (t.value)
        errs.push({ type: 'Invalid', field: `${ip}.operator`, value: t, detail: "value must be empty when `operator` is 'Exists'" });
    } else errs.push({ type: 'NotSupported', field: `${ip}.operator`, value: t.operator, supported: ['Equal', 'Exists'] });
    if (t.effect && !['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect)) {
      errs.push({
        type: 'NotSupported',
        field: `${ip}.effect`,
        value: t.effect,
        supported: ['NoExecute', 'NoSchedule', 'PreferNoSchedule'],
      });
    }
  });
  return errs;
}

/** ValidatePodSpec (the parts the engine models), with the upstream order of checks. */
export function validatePodSpec(spec: Obj | undefined, path: string): FieldError[] {
  const s: Obj = spec && typeof spec === 'object' ? spec : {};
  const [vols, errs] = validateVolumes(s.volumes, `${path}.volumes`);
  const cs: Obj[] = Array.isArray(s.containers) ? s.containers : [];
  if (cs.length === 0) errs.push({ type: 'Required', field: `${path}.containers` });
  const names = new Set<string>();
  cs.forEach((c, i) => {
    const p = `${path}.containers[${i}]`;
    errs.push(...validateContainer(c ?? {}, p, vols));
    if (names.has(c?.name)) errs.push({ type: 'Duplicate', field: `${p}.name`, value: c.name });
    else names.add(c?.name);
    errs.push(...validateProbe(c?.livenessProbe, `${p}.livenessProbe`, 'liveness'));
    errs.push(...validateProbe(c?.readinessProbe, `${p}.readinessProbe`, 'readiness'));
    errs.push(...validateProbe(c?.startupProbe, `${p}.startupProbe`, 'startup'));
    if (c?.lifecycle?.preStop) errs.push(...validateHandler(c.lifecycle.preStop, `${p}.lifecycle.preStop`));
    if (c?.lifecycle?.postStart) errs.push(...validateHandler(c.lifecycle.postStart, `${p}.lifecycle.postStart`));
    if (c?.restartPolicy !== undefined)
      errs.push({ type: 'Forbidden', field: `${p}.restartPolicy`, detail: 'may not be set for non-init containers' });
  });
  // host port conflicts across containers (AccumulateUniqueHostPorts)
  const hostPorts = new Set<string>();
  cs.forEach((c, ci) =>
    (c?.ports ?? []).forEach((p: Obj, pi: number) => {
      if (!p?.hostPort) return;
      const key = `${p.protocol}/${p.hostIP ?? ''}/${p.hostPort}`;
      if (hostPorts.has(key)) errs.push({ type: 'Duplicate', field: `${path}.containers[${ci}].ports[${pi}].hostPort`, value: key });
      hostPorts.add(key);
    }),
  );
  (Array.isArray(s.initContainers) ? s.initContainers : []).forEach((c: Obj, i: number) => {
    const p = `${path}.initContainers[${i}]`;
    errs.push(...validateContainer(c ?? {}, p, vols));
    if (names.has(c?.name)) errs.push({ type: 'Duplicate', field: `${p}.name`, value: c.name });
    else names.add(c?.name);
    if (c?.restartPolicy !== undefined && c.restartPolicy !== 'Always')
      errs.push({ type: 'NotSupported', field: `${p}.restartPolicy`, value: c.restartPolicy, supported: ['Always'] });
  });
  const rp = s.restartPolicy;
  if (!rp) errs.push({ type: 'Required', field: `${path}.restartPolicy` });
  else if (!['Always', 'OnFailure', 'Never'].includes(rp))
    errs.push({ type: 'NotSupported', field: `${path}.restartPolicy`, value: rp, supported: ['Always', 'OnFailure', 'Never'] });
  const dp = s.dnsPolicy;
  if (!dp) errs.push({ type: 'Required', field: `${path}.dnsPolicy` });
  else if (!['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'].includes(dp))
    errs.push({
      type: 'NotSupported',
      field: `${path}.dnsPolicy`,
      value: dp,
      supported: ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'],
    });
  errs.push(...validateLabels(s.nodeSelector, `${path}.nodeSelector`));
  if (s.serviceAccountName)
    for (const m of nameIsDNSSubdomain(s.serviceAccountName, false))
      errs.push({ type: 'Invalid', field: `${path}.serviceAccountName`, value: s.serviceAccountName, detail: m });
  if (s.nodeName)
    for (const m of isDNS1123Subdomain(s.nodeName)) errs.push({ type: 'Invalid', field: `${path}.nodeName`, value: s.nodeName, detail: m });
  if (
    s.activeDeadlineSeconds !== undefined &&
    s.activeDeadlineSeconds !== null &&
    (s.activeDeadlineSeconds < 1 || s.activeDeadlineSeconds > 2147483647)
  ) {
    errs.push({
      type: 'Invalid',
      field: `${path}.activeDeadlineSeconds`,
      value: s.activeDeadlineSeconds,
      detail: inclusiveRangeError(1, 2147483647),
    });
  }
  if (s.hostname) errs.push(...dns1123Label(s.hostname, `${path}.hostname`));
  if (s.subdomain) errs.push(...dns1123Label(s.subdomain, `${path}.subdomain`));
  errs.push(...validateTolerations(s.tolerations, `${path}.tolerations`));
  if (s.priorityClassName)
    for (const m of nameIsDNSSubdomain(s.priorityClassName, false))
      errs.push({ type: 'Invalid', field: `${path}.priorityClassName`, value: s.priorityClassName, detail: m });
  errs.push(...nonNegative(s.terminationGracePeriodSeconds, `${path}.terminationGracePeriodSeconds`));
  return errs;
}

/** ValidatePodTemplateSpec: template labels/annotations + the pod spec. */
export function validatePodTemplateSpec(tpl: Obj | undefined, path: string): FieldError[] {
  const t: Obj = tpl ?? {};
  return [
    // upstream uses fldPath.Child("labels"): the path has no "metadata" segment
    ...validateLabels(t.metadata?.labels, `${path}.labels`),
    ...validateAnnotations(t.metadata?.annotations, `${path}.annotations`),
    ...validatePodSpec(t.spec, `${path}.spec`),
  ];
}

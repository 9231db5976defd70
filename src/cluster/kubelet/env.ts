/**
 * A container's environment, as makeEnvironmentVariables (pkg/kubelet/kubelet_pods.go):
 * service links for the `kubernetes` Service, envFrom (ConfigMaps/Secrets, with prefix), then
 * env in order with `$(VAR)` expansion and valueFrom (configMapKeyRef, secretKeyRef, fieldRef,
 * resourceFieldRef). Errors are upstream's texts, which become the CreateContainerConfigError
 * message: `configmap "the-map" not found`, `couldn't find key altGreeting in ConfigMap
 * default/the-map`, `secret "x" not found`, `couldn't find key k in Secret default/x`.
 */
import type { ConfigMap, Pod, Secret } from '../api/objects';
import type { Container } from 'kubernetes-types/core/v1';
import { StatusError } from '../api/errors';
import { expandKubeVars } from '../userland/container-process';
import { getOwn, hasOwn, setOwn } from '../api/safe-object';

/** Reads a ConfigMap or Secret (the kubelet's configmap/secret manager); throws StatusError 404. */
export type ObjectGetter = (resource: 'configmaps' | 'secrets', namespace: string, name: string) => ConfigMap | Secret;

/** Container env fields (core/v1 Container's). */
export type EnvContainer = Pick<Container, 'name' | 'env' | 'envFrom' | 'resources'>;

export type EnvResult = { ok: true; env: Record<string, string> } | { ok: false; message: string };

/** Standard base64 → text (Secret data as the kubelet decodes it; bytes read as Latin-1/UTF-8 best effort). */
export function base64Decode(s: string): string {
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const bytes: number[] = [];
  let buf = 0,
    bits = 0;
  for (const ch of s.replace(/=+$/, '')) {
    const v = A.indexOf(ch);
    if (v < 0) return s;
    buf = (buf << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buf >> bits) & 0xff);
    }
  }
  try {
    return decodeURIComponent(bytes.map((b) => '%' + b.toString(16).padStart(2, '0')).join(''));
  } catch {
    return String.fromCharCode(...bytes);
  }
}

class MissingObject extends Error {}

function notFound(err: unknown): boolean {
  return (err instanceof StatusError && err.code === 404) || err instanceof MissingObject;
}

/** The message the kubelet shows for a missing object (the apiserver's NotFound text). */
function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The `kubernetes` Service's link variables (enableServiceLinks / master service). */
function serviceLinks(): Record<string, string> {
  return {
    KUBERNETES_SERVICE_HOST: '10.96.0.1',
    KUBERNETES_SERVICE_PORT: '443',
    KUBERNETES_SERVICE_PORT_HTTPS: '443',
    KUBERNETES_PORT: 'tcp://10.96.0.1:443',
    KUBERNETES_PORT_443_TCP: 'tcp://10.96.0.1:443',
    KUBERNETES_PORT_443_TCP_PROTO: 'tcp',
    KUBERNETES_PORT_443_TCP_PORT: '443',
    KUBERNETES_PORT_443_TCP_ADDR: '10.96.0.1',
  };
}

function fieldRef(pod: Pod, path: string, podIP: string, hostIP: string): string {
  const m = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (m) return pod.metadata[m[1] as 'labels']?.[m[2]] ?? '';
  switch (path) {
    case 'metadata.name':
      return pod.metadata.name;
    case 'metadata.namespace':
      return pod.metadata.namespace ?? '';
    case 'metadata.uid':
      return pod.metadata.uid ?? '';
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? 'default';
    case 'status.podIP':
    case 'status.podIPs':
      return podIP;
    case 'status.hostIP':
    case 'status.hostIPs':
      return hostIP;
    default:
      return '';
  }
}

/** makeEnvironmentVariables for one container. */
export function makeEnvironmentVariables(pod: Pod, c: EnvContainer, get: ObjectGetter, podIP: string, hostIP: string): EnvResult {
  const ns = pod.metadata.namespace ?? 'default';
  const out: Record<string, string> = pod.spec?.enableServiceLinks === false ? {} : serviceLinks();
  const cache = new Map<string, ConfigMap | Secret>();
  const fetch = (res: 'configmaps' | 'secrets', name: string): ConfigMap | Secret => {
    const k = `${res}/${name}`;
    let o = cache.get(k);
    if (!o) {
      try {
        o = get(res, ns, name);
      } catch (err) {
        // the watch-based manager's cache error: NewNotFound(Resource "configmap"/"secret")
        if (notFound(err)) throw new MissingObject(`${res === 'secrets' ? 'secret' : 'configmap'} "${name}" not found`);
        throw err;
      }
      cache.set(k, o);
    }
    return o;
  };
  // `secret` says which kind `o` is (the resource it was fetched from)
  const dataOf = (o: ConfigMap | Secret, secret: boolean): Record<string, string> => {
    // kubelet_pods.go makeEnvironmentVariables reads configMap.Data only (binaryData never becomes a variable)
    if (!secret) return { ...(o.data ?? {}) }; // spread defines own keys
    const d: Record<string, string> = {};
    for (const [k, v] of Object.entries(o.data ?? {})) setOwn(d, k, base64Decode(v));
    for (const [k, v] of Object.entries((o as Secret).stringData ?? {})) setOwn(d, k, v);
    return d;
  };
  try {
    for (const ef of c.envFrom ?? []) {
      const ref = ef.configMapRef ?? ef.secretRef;
      if (!ref) continue;
      const secret = !!ef.secretRef;
      let o: ConfigMap | Secret;
      try {
        // upstream validation requires the name; the apiserver's (registry/validation/podspec.ts) does not check it yet
        o = fetch(secret ? 'secrets' : 'configmaps', ref.name!);
      } catch (err) {
        if (notFound(err) && ref.optional) continue;
        throw err;
      }
      for (const [k, v] of Object.entries(dataOf(o, secret))) setOwn(out, (ef.prefix ?? '') + k, v);
    }
    for (const e of c.env ?? []) {
      if (e.valueFrom === undefined) {
        setOwn(out, e.name, expandKubeVars(e.value ?? '', out));
        continue;
      }
      const vf = e.valueFrom;
      const kref = vf.configMapKeyRef ?? vf.secretKeyRef;
      if (kref) {
        const secret = !!vf.secretKeyRef;
        let o: ConfigMap | Secret;
        try {
          // as for envFrom: upstream validation requires the name
          o = fetch(secret ? 'secrets' : 'configmaps', kref.name!);
        } catch (err) {
          if (notFound(err) && kref.optional) continue;
          throw err;
        }
        const data = dataOf(o, secret);
        if (!hasOwn(data, kref.key)) {
          if (kref.optional) continue;
          return { ok: false, message: `couldn't find key ${kref.key} in ${secret ? 'Secret' : 'ConfigMap'} ${ns}/${kref.name}` };
        }
        setOwn(out, e.name, data[kref.key]);
      } else if (vf.fieldRef) setOwn(out, e.name, fieldRef(pod, vf.fieldRef.fieldPath, podIP, hostIP));
      else if (vf.resourceFieldRef)
        setOwn(out, e.name, getOwn(c.resources?.limits, vf.resourceFieldRef.resource.replace(/^limits\.|^requests\./, '')) ?? '0');
    }
  } catch (err) {
    return { ok: false, message: errText(err) };
  }
  return { ok: true, env: out };
}

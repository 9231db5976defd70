/**
 * Deprecated APIs a v1.33 kube-apiserver still serves, and the warning it sends with every
 * request to them (staging/src/k8s.io/apiserver/pkg/endpoints/deprecation/deprecation.go
 * `WarningMessage`, from the types' `+k8s:prerelease-lifecycle-gen` tags; the installer adds it
 * to every response of the resource, success or error, as a `Warning: 299 - "…"` header).
 * kubectl prints each distinct warning once per command on stderr: `Warning: <text>`.
 */

/** A type's lifecycle tags: deprecated in major.minor, removed in, replaced by. */
interface Lifecycle {
  deprecated: [number, number];
  removed?: [number, number];
  /** Replacement group/version and kind, e.g. ['discovery.k8s.io/v1', 'EndpointSlice']. */
  replacement?: [string, string];
}

/** Served group/version/kind → lifecycle, for the kinds deprecated by v1.33. */
const LIFECYCLES = new Map<string, Lifecycle>([
  // pkg/apis/core/v1 types.go: Endpoints +k8s:prerelease-lifecycle-gen:deprecated=1.33, replacement=discovery.k8s.io,v1,EndpointSlice
  ['v1/Endpoints', { deprecated: [1, 33], replacement: ['discovery.k8s.io/v1', 'EndpointSlice'] }],
  // ComponentStatus: deprecated=1.19 (served only if registered)
  ['v1/ComponentStatus', { deprecated: [1, 19] }],
]);

/**
 * deprecation.WarningMessage for a served group/version/kind (`apiVersion` "v1" or
 * "group/version"), or undefined when it is not deprecated: `v1 Endpoints is deprecated in
 * v1.33+; use discovery.k8s.io/v1 EndpointSlice`.
 */
export function deprecationWarning(apiVersion: string, kind: string): string | undefined {
  const l = LIFECYCLES.get(`${apiVersion}/${kind}`);
  if (!l) return undefined;
  let w = `${apiVersion} ${kind} is deprecated in v${l.deprecated[0]}.${l.deprecated[1]}+`;
  if (l.removed) w += `, unavailable in v${l.removed[0]}.${l.removed[1]}+`;
  if (l.replacement) w += `; use ${l.replacement[0]} ${l.replacement[1]}`;
  return w;
}

/**
 * Markers in a user controller's source, in the style of kubebuilder's `// +kubebuilder:…`
 * comments (sigs.k8s.io/controller-tools/pkg/markers): what the controller reconciles and
 * what it owns, read from the text without running it.
 *
 * ```ts
 * // +kube-relay:for=websites.demo.kube-relay.dev
 * // +kube-relay:owns=deployments.apps
 * // +kube-relay:owns=services
 * ```
 *
 * Kinds are written as `kubectl get` takes them (resource, kind or short name, `.group` for a
 * named group); controller.ts resolves them with the apiserver's RESTMapper-like registry.
 */

/** The `for` and `owns` markers of a source (`for` undefined when absent; the last one wins). */
export function parseMarkers(source: string): { for?: string; owns: string[] } {
  const out: { for?: string; owns: string[] } = { owns: [] };
  for (const m of source.matchAll(/^[ \t]*\/\/[ \t]*\+kube-relay:(for|owns)=([^\s]+)[ \t]*$/gm)) {
    if (m[1] === 'for') out.for = m[2];
    else for (const k of m[2].split(',')) if (k && !out.owns.includes(k)) out.owns.push(k);
  }
  return out;
}

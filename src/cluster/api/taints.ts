/**
 * Taints and tolerations (k8s.io/api/core/v1/toleration.go ToleratesTaint, taint.go
 * MatchTaint, and component-helpers/scheduling/corev1 TolerationsTolerateTaint), shared by
 * the scheduler, the node lifecycle and taint eviction controllers, and the DaemonSet
 * controller.
 */

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  /** RFC 3339; set on NoExecute taints the node controller adds. */
  timeAdded?: string;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

/** Toleration.ToleratesTaint: effect and key match (empty matches all), then Exists or Equal value. */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** TolerationsTolerateTaint: any toleration tolerates the taint. */
export function tolerationsTolerateTaint(tols: Toleration[] | undefined, taint: Taint): boolean {
  return (tols ?? []).some((t) => toleratesTaint(t, taint));
}

/** Taint.MatchTaint: same key and effect. */
export function matchTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

/** True when a taint with the same key and effect is present. */
export function taintExists(taints: Taint[] | undefined, t: Taint): boolean {
  return (taints ?? []).some((x) => matchTaint(x, t));
}

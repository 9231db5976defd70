/**
 * Requests in flight for the graph's traffic animation (issue 5 §5). The Network panel
 * (src/ui/network/NetworkPanel.tsx) sends requests through the worker and appends one flight per
 * request; the graph (graph/TrafficLayer.tsx) animates each flight along
 * source → Service (→ Ingress) → the Pod kube-proxy's rules picked, or stops it at the
 * Service with a red mark when the request failed. Flights older than
 * {@link TRAFFIC_FLIGHT_MS} wall milliseconds are dropped by the panel.
 */
import type { StateCreator } from 'zustand/vanilla';
import type { KubeState } from '../store';

/** How long one flight is animated, wall milliseconds. */
export const TRAFFIC_FLIGHT_MS = 1_600;

/** One request travelling through the graph. */
export interface TrafficFlight {
  /** increasing per page */
  id: number;
  /** where it starts: off-cluster client (through a NodePort / LoadBalancer IP / Ingress) or a Pod */
  source: { kind: 'external' } | { kind: 'pod'; podKey: string };
  /** "Ingress/NS/NAME" when it came through an Ingress */
  ingressKey: string | null;
  /** "Service/NS/NAME", null when nothing resolved (unknown host, NXDOMAIN) */
  serviceKey: string | null;
  /** "Pod/NS/NAME" that kube-proxy's rules chose, null when the request failed before a Pod */
  podKey: string | null;
  /** the node whose kube-proxy rules routed it */
  viaNode: string | null;
  ok: boolean;
  /** what the client saw, e.g. "HTTP 200 from peekcart-7c9f…" or "connection refused (no endpoints)" */
  message: string;
  /** performance.now() when the flight started */
  startedWallMs: number;
}

export interface TrafficSlice {
  /** Flights being animated, oldest first. */
  flights: readonly TrafficFlight[];
}

export const createTrafficSlice: StateCreator<KubeState, [], [], TrafficSlice> = () => ({
  flights: [],
});

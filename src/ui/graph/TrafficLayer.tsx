/**
 * Requests in flight (store `flights`, slices/traffic.ts) as packets travelling through the
 * graph: source (an off-cluster client above the first card, or a Pod) → Ingress (when it came
 * through one) → Service → the Pod kube-proxy's rules picked. A failed request turns red and
 * stops at the Service (or wherever it got to). Positions are read from React Flow once, when a
 * flight starts; the motion is a Web Animation (no React re-render per frame).
 */
import { memo, useLayoutEffect, useRef, useState } from 'react';
import { ViewportPortal, useStoreApi } from '@xyflow/react';
import { useKubeStore } from '../store/store';
import type { KubeState } from '../store/store';
import { TRAFFIC_FLIGHT_MS, type TrafficFlight } from '../store/slices/traffic';

const selectFlights = (s: KubeState) => s.flights;

type Point = { x: number; y: number };

/** The stops of a flight, by flow-node id ("external" for an off-cluster client). */
export function flightStops(f: TrafficFlight, shownAs: ReadonlyMap<string, string>): string[] {
  const stops: string[] = [f.source.kind === 'pod' ? (shownAs.get(f.source.podKey) ?? f.source.podKey) : 'external'];
  if (f.ingressKey) stops.push(f.ingressKey);
  if (f.serviceKey) stops.push(f.serviceKey);
  if (f.ok && f.podKey) stops.push(shownAs.get(f.podKey) ?? f.podKey);
  return stops;
}

const Packet = memo(function Packet({ flight, shownAs }: { flight: TrafficFlight; shownAs: ReadonlyMap<string, string> }) {
  const ref = useRef<HTMLDivElement>(null);
  const rf = useStoreApi();
  const [done, setDone] = useState(false);
  useLayoutEffect(() => {
    const { nodeLookup } = rf.getState();
    const center = (id: string): Point | null => {
      const n = nodeLookup.get(id);
      if (!n) return null;
      const { x, y } = n.internals.positionAbsolute;
      return { x: x + (n.measured.width ?? n.width ?? 0) / 2, y: y + (n.measured.height ?? n.height ?? 0) / 2 };
    };
    const ids = flightStops(flight, shownAs);
    const points: Point[] = [];
    for (const id of ids.slice(1)) {
      const p = center(id);
      if (p) points.push(p);
    }
    const first = ids[0] === 'external' ? (points[0] ? { x: points[0].x - 90, y: points[0].y - 70 } : null) : center(ids[0]);
    if (first) points.unshift(first);
    const el = ref.current;
    if (!el || points.length === 0) return;
    // the packet starts from its source when it is first drawn, not when the request was sent:
    // on a busy main thread a flight may mount late, and a packet already half-way (or past its
    // end) would never be seen; the store still drops the flight TRAFFIC_FLIGHT_MS after sending
    const frames = points.map((p, i) => ({
      transform: `translate(${p.x - 6}px, ${p.y - 6}px)`,
      offset: points.length === 1 ? 0 : i / (points.length - 1),
    }));
    if (frames.length === 1) frames.push({ ...frames[0], offset: 1 });
    const anim = el.animate(frames, { duration: TRAFFIC_FLIGHT_MS * 0.8, easing: 'ease-in-out', fill: 'forwards' });
    const timer = setTimeout(() => setDone(true), TRAFFIC_FLIGHT_MS);
    return () => {
      anim.cancel();
      clearTimeout(timer);
    };
  }, [flight, shownAs, rf]);
  if (done) return null;
  return (
    <div
      ref={ref}
      className={`traffic-packet ${flight.ok ? 'ok' : 'fail'}`}
      data-testid="traffic-packet"
      data-ok={String(flight.ok)}
      title={flight.message}
    />
  );
});

/** Every flight as a packet, drawn in flow coordinates above the cards. */
export function TrafficLayer({ shownAs }: { shownAs: ReadonlyMap<string, string> }) {
  const flights = useKubeStore(selectFlights);
  if (!flights.length) return null;
  return (
    <ViewportPortal>
      {flights.map((f) => (
        <Packet key={f.id} flight={f} shownAs={shownAs} />
      ))}
    </ViewportPortal>
  );
}

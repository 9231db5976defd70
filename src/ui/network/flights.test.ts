import { beforeEach, describe, expect, it } from 'vitest';
import { kubeStore } from '../store/store';
import { expireFlights, pushFlights } from '../store/actions';
import { TRAFFIC_FLIGHT_MS } from '../store/slices/traffic';
import type { TrafficFlight } from '../store/slices/traffic';

const flight = (startedWallMs: number, podKey: string | null): Omit<TrafficFlight, 'id'> => ({
  source: { kind: 'external' },
  ingressKey: null,
  serviceKey: 'Service/default/web',
  podKey,
  viaNode: 'node-1',
  ok: podKey !== null,
  message: podKey ? 'HTTP/1.1 200 OK' : "curl: (7) Failed to connect to 10.96.0.20 port 80 after 0 ms: Couldn't connect to server",
  startedWallMs,
});

describe('traffic flights in the store', () => {
  beforeEach(() => kubeStore.setState({ flights: [] }));

  it('appends flights oldest first with increasing ids; an empty push changes nothing', () => {
    pushFlights([flight(100, 'Pod/default/web-a'), flight(100, 'Pod/default/web-b')]);
    const before = kubeStore.getState().flights;
    pushFlights([]);
    expect(kubeStore.getState().flights).toBe(before);
    pushFlights([flight(200, null)]);
    const { flights } = kubeStore.getState();
    expect(flights.map((f) => f.podKey)).toEqual(['Pod/default/web-a', 'Pod/default/web-b', null]);
    expect(flights[1].id).toBe(flights[0].id + 1);
    expect(flights[2].id).toBe(flights[1].id + 1);
  });

  it.each([
    ['keeps a flight exactly TRAFFIC_FLIGHT_MS old', 100 + TRAFFIC_FLIGHT_MS, [100, 200]],
    ['drops a flight older than TRAFFIC_FLIGHT_MS', 101 + TRAFFIC_FLIGHT_MS, [200]],
    ['drops all of them later', 201 + TRAFFIC_FLIGHT_MS, []],
  ])('%s', (_case, now, kept) => {
    pushFlights([flight(100, 'Pod/default/web-a'), flight(200, 'Pod/default/web-b')]);
    expireFlights(now);
    expect(kubeStore.getState().flights.map((f) => f.startedWallMs)).toEqual(kept);
  });

  it('leaves the collection untouched when nothing expires', () => {
    pushFlights([flight(100, 'Pod/default/web-a')]);
    const before = kubeStore.getState().flights;
    expireFlights(150);
    expect(kubeStore.getState().flights).toBe(before);
  });
});

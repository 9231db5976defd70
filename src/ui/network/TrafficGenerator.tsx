/**
 * The traffic generator (issue 5 §5): sends HTTP requests from outside the cluster or from a
 * running Pod to a URL, through the worker (`ClusterApi.sendRequests`: cluster DNS, then the
 * source node's kube-proxy rules pick an endpoint). Each result is one row (status or curl's
 * error, the Pod that answered, the node whose kube-proxy routed it, the chains entered) and
 * one flight in the store for the graph's animation; a tally shows how the rules' probabilities
 * spread the requests over the Pods. All of it is rendered as text.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import { selectObjects } from '../store/selectors';
import { cluster } from '../cluster-client';
import { expireFlights, pushFlights } from '../store/actions';
import { TRAFFIC_FLIGHT_MS } from '../store/slices/traffic';
import type { TrafficResult } from '../../worker/protocol';
import { trafficSources, urlSuggestions, urlSuggestionsFor } from './suggestions';
import { flightOf, parseSource, tallyByPod } from './tally';
import { TrafficResults } from './TrafficResults';

/** One row of the results list: a result with the source it was sent from and a row id. */
export interface ResultRow {
  id: number;
  source: string;
  url: string;
  result: TrafficResult;
}

/** Rows kept in the list (continuous mode appends; older rows drop off the top). */
const MAX_ROWS = 200;
const DEFAULT_URL = 'http://peekcart';

/** The generator's inputs and results live for the page (the tab unmounts when hidden). */
const session = { source: 'external', url: '', count: 10, intervalMs: 500, rows: [] as ResultRow[], nextId: 1 };

function clampCount(n: number): number {
  return Number.isFinite(n) ? Math.min(100, Math.max(1, Math.round(n))) : 1;
}

export function TrafficGenerator() {
  const { t } = useTranslation();
  const objects = useKubeStore(selectObjects);
  const [source, setSource] = useState(session.source);
  const [url, setUrl] = useState(session.url);
  const [count, setCount] = useState(session.count);
  const [intervalMs, setIntervalMs] = useState(session.intervalMs);
  const [continuous, setContinuous] = useState(false);
  const [rows, setRows] = useState<ResultRow[]>(session.rows);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pending = useRef(false);

  const list = useMemo(() => [...objects.values()].map((o) => o.object), [objects]);
  const sources = useMemo(() => trafficSources(list), [list]);
  const urls = useMemo(() => urlSuggestionsFor(urlSuggestions(list), source), [list, source]);
  const tally = useMemo(() => tallyByPod(rows.map((r) => r.result)), [rows]);

  useEffect(() => {
    Object.assign(session, { source, url, count, intervalMs, rows });
  }, [source, url, count, intervalMs, rows]);

  /** Sends `n` requests; `append` keeps the earlier rows (continuous mode). */
  const send = async (n: number, append: boolean) => {
    if (pending.current) return;
    pending.current = true;
    setBusy(true);
    const target = url.trim() || DEFAULT_URL;
    const from = source;
    try {
      const results = await cluster.sendRequests({ source: parseSource(from), url: target, count: clampCount(n) });
      const now = performance.now();
      pushFlights(results.map((r) => flightOf(r, from, now)));
      setTimeout(() => expireFlights(performance.now()), TRAFFIC_FLIGHT_MS + 50);
      const added = results.map((result) => ({ id: session.nextId++, source: from, url: target, result }));
      setRows((prev) => (append ? [...prev, ...added] : added).slice(-MAX_ROWS));
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setContinuous(false);
    } finally {
      pending.current = false;
      setBusy(false);
    }
  };

  // continuous mode: one request every `intervalMs` wall milliseconds while on
  const sendRef = useRef(send);
  useEffect(() => {
    sendRef.current = send;
  });
  useEffect(() => {
    if (!continuous) return;
    const timer = setInterval(() => void sendRef.current(1, true), Math.max(50, intervalMs));
    return () => clearInterval(timer);
  }, [continuous, intervalMs]);

  const sourceOptions = sources.includes(source) ? sources : [...sources, source];
  return (
    <section className="net-section" aria-labelledby="net-traffic-title">
      <h3 id="net-traffic-title">{t('network.trafficTitle')}</h3>
      <p className="hint">{t('network.trafficHint')}</p>
      <form
        className="net-traffic-form"
        onSubmit={(e) => {
          e.preventDefault();
          void send(count, false);
        }}
      >
        <label className="net-inline">
          {t('network.source')}
          <select data-testid="traffic-source" value={source} onChange={(e) => setSource(e.target.value)}>
            {sourceOptions.map((s) => (
              <option key={s} value={s}>
                {s === 'external' ? t('network.external') : s}
              </option>
            ))}
          </select>
        </label>
        <label className="net-inline net-grow">
          {t('network.url')}
          <input
            data-testid="traffic-url"
            placeholder={DEFAULT_URL}
            list="net-traffic-urls"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </label>
        <datalist id="net-traffic-urls">
          {urls.map((u) => (
            <option key={u.url} value={u.url} label={u.via} />
          ))}
        </datalist>
        <label className="net-inline">
          {t('network.count')}
          <input
            data-testid="traffic-count"
            type="number"
            min={1}
            max={100}
            value={count}
            onChange={(e) => setCount(clampCount(e.target.valueAsNumber))}
            className="net-num"
          />
        </label>
        <button type="submit" className="primary" data-testid="traffic-send" disabled={busy && !continuous}>
          {t('network.send')}
        </button>
        <label className="net-inline">
          <input type="checkbox" data-testid="traffic-continuous" checked={continuous} onChange={(e) => setContinuous(e.target.checked)} />
          {t('network.continuous')}
          <input
            type="number"
            aria-label={t('network.ms')}
            data-testid="traffic-interval"
            min={50}
            step={50}
            value={intervalMs}
            onChange={(e) => setIntervalMs(Number.isFinite(e.target.valueAsNumber) ? Math.max(50, e.target.valueAsNumber) : 500)}
            className="net-num"
          />
          {t('network.ms')}
        </label>
      </form>
      {error && (
        <pre className="net-output stderr" data-testid="traffic-error">
          {error}
        </pre>
      )}
      <TrafficResults rows={rows} tally={tally} onClear={() => setRows([])} />
    </section>
  );
}

/**
 * Load controls for the HPA (issue 5 §7): a slider and a number per workload for the total CPU
 * its Pods use (millicores; `ClusterApi.setLoad`, which feeds the simulated metrics-server),
 * and next to it what the HPA reports — the TARGETS column of `kubectl get hpa` and its
 * current → desired replicas — so a person sees the control loop react as time advances.
 */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import { selectObjects } from '../store/selectors';
import { cluster } from '../cluster-client';
import type { WorkloadLoad } from '../../worker/protocol';
import { loadTargets, type LoadTarget } from './load';

/** Wall ms a slider must rest before its value is sent (each send is a session-log action). */
const SEND_DELAY_MS = 250;

const Control = memo(function Control({ target, initial }: { target: LoadTarget; initial: number }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(initial);
  const sent = useRef(initial);
  useEffect(() => {
    // the worker's value arrives after mount (loads()); adopt it unless the user moved the control
    if (sent.current === 0 && initial !== 0) {
      sent.current = initial;
      setValue(initial);
    }
  }, [initial]);
  useEffect(() => {
    if (value === sent.current) return;
    const timer = setTimeout(() => {
      sent.current = value;
      void cluster.setLoad({ namespace: target.namespace, workload: target.workload, totalCpuMillicores: value });
    }, SEND_DELAY_MS);
    return () => clearTimeout(timer);
  }, [value, target.namespace, target.workload]);
  const max = Math.max(target.maxMillicores, value);
  const label = t('network.loadLabel', { workload: `${target.namespace}/${target.workload}` });
  const set = (n: number) => setValue(Number.isFinite(n) ? Math.max(0, Math.round(n)) : 0);
  return (
    <li className="net-load" data-testid="load-control" data-workload={target.id} data-load={value}>
      <div className="net-load-head">
        <code>
          {target.namespace}/{target.workload}
        </code>
        {target.replicas !== null && (
          <span className="muted">{t('network.replicas', { ready: target.readyReplicas, desired: target.replicas })}</span>
        )}
        {target.podRequestMillicores > 0 && <span className="muted">{t('network.perPod', { m: target.podRequestMillicores })}</span>}
      </div>
      <div className="net-load-inputs">
        <input
          type="range"
          aria-label={label}
          data-testid="load-slider"
          min={0}
          max={max}
          step={10}
          value={value}
          onChange={(e) => set(e.target.valueAsNumber)}
        />
        <input
          type="number"
          aria-label={label}
          data-testid="load-input"
          min={0}
          step={10}
          value={value}
          onChange={(e) => set(e.target.valueAsNumber)}
          className="net-num"
        />
        <span>m</span>
      </div>
      {target.hpas.length === 0 ? (
        <div className="muted net-hpa">{t('network.noHpa')}</div>
      ) : (
        target.hpas.map((h) => (
          <div key={h.name} className="net-hpa" data-testid="load-hpa" data-hpa={h.name} data-targets={h.targets}>
            {t('network.hpaLine', {
              name: h.name,
              targets: h.targets,
              current: h.currentReplicas,
              desired: h.desiredReplicas,
              min: h.minReplicas,
              max: h.maxReplicas,
            })}
          </div>
        ))
      )}
    </li>
  );
});

export function LoadControls() {
  const { t } = useTranslation();
  const objects = useKubeStore(selectObjects);
  const targets = useMemo(() => loadTargets(objects.values()), [objects]);
  const [loads, setLoads] = useState<WorkloadLoad[]>([]);
  useEffect(() => void cluster.loads().then(setLoads), []);
  const initial = (tg: LoadTarget) =>
    loads.find((l) => l.namespace === tg.namespace && l.workload === tg.workload)?.totalCpuMillicores ?? 0;
  return (
    <section className="net-section" aria-labelledby="net-load-title">
      <h3 id="net-load-title">{t('network.loadTitle')}</h3>
      <p className="hint">{t('network.loadHint')}</p>
      {targets.length === 0 ? (
        <p className="hint">{t('network.noWorkloads')}</p>
      ) : (
        <ul className="net-loads">
          {targets.map((tg) => (
            <Control key={tg.id} target={tg} initial={initial(tg)} />
          ))}
        </ul>
      )}
    </section>
  );
}

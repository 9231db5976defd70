/**
 * What the page says about the worker's health (issue 21 §5):
 * - `[data-testid=watchdog-banner]` (role alert) when the watchdog (watchdog.ts) finds the
 *   cluster worker not answering, with how long, and two ways out: Pause (sent now, taken
 *   as soon as the worker answers) and Reset (the stuck worker is terminated and a new one
 *   starts an empty cluster);
 * - `[data-testid=pace-note]` while playing slower than the chosen speed because the engine
 *   cannot keep up ("running at ×37 of ×100…"; the worker's measured `pace`).
 */
import { memo, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useKubeStore, type KubeState } from '../store/store';
import { cluster, restartWorkerFresh } from '../cluster-client';
import { isBehind } from '../../worker/time-slice';
import { watchdogStore } from './watchdog-store';
import './watchdog.css';

const selectPace = (s: KubeState) => s.pace;
const selectSpeed = (s: KubeState) => s.speed;
const selectRunning = (s: KubeState) => s.running;

/** ×37 for 37.4; one decimal below 10 (×2.5). */
function formatPace(p: number): string {
  return p >= 10 ? String(Math.round(p)) : String(Math.round(p * 10) / 10);
}

export const WatchdogBanner = memo(function WatchdogBanner() {
  const { t } = useTranslation();
  const stuck = useStore(watchdogStore, (s) => s.stuck);
  const since = useStore(watchdogStore, (s) => s.sinceMs);
  const pace = useKubeStore(selectPace);
  const speed = useKubeStore(selectSpeed);
  const running = useKubeStore(selectRunning);
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!stuck) return;
    const h = setInterval(() => setNow(performance.now()), 1_000);
    return () => clearInterval(h);
  }, [stuck]);
  if (stuck) {
    const seconds = Math.max(0, Math.round((Math.max(now, since ?? now) - (since ?? now)) / 1000));
    return (
      <div className="watchdog-banner" role="alert" data-testid="watchdog-banner">
        <span>{t('watchdog.stuck', { seconds })}</span>
        <button type="button" data-testid="watchdog-pause" title={t('watchdog.pauseTitle')} onClick={() => void cluster.pause()}>
          {t('watchdog.pause')}
        </button>
        <button type="button" data-testid="watchdog-reset" title={t('watchdog.resetTitle')} onClick={restartWorkerFresh}>
          {t('watchdog.reset')}
        </button>
      </div>
    );
  }
  if (isBehind(pace, speed, running) && pace !== null) {
    return (
      <div className="pace-note" role="status" data-testid="pace-note" data-pace={pace.toFixed(2)}>
        {t('watchdog.behind', { pace: formatPace(pace), speed })}
      </div>
    );
  }
  return null;
});

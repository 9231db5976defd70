/**
 * Simulated time and playback: time, play/pause, step (to the next hop), speed, fast-forward
 * (instantly until quiet, past the next deadline), the timeline, the pending-timers strip
 * (one countdown per kind of known deadline: eviction, back-off, HPA stabilization…), reset.
 */
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import { selectConnection, selectNotice, selectProfile, selectRunning, selectSimMs, selectSpeed } from '../store/selectors';
import type { KubeState } from '../store/store';
import { cluster } from '../cluster-client';
import { formatCountdown, formatSimTime } from '../format';
import { pendingTimers, type PendingTimer } from '../timeline/pending-timers';
import { SPEEDS } from '../../worker/protocol';
import { Icon } from '../Icon';
import { TimelineBar } from '../timeline/TimelineBar';
import { Preferences } from './Preferences';
import { HelpDialog } from './HelpDialog';
import { TourMenu } from '../tours/TourMenu';
import { ExamplesButton } from '../gallery/ExamplesButton';
import { EngineBack, EngineControl } from '../attach/EngineControl';
import { engineStore } from '../attach/engine';
import { ActingAsChip } from '../kubectl/ActingAsSwitcher';

const SimTime = memo(function SimTime() {
  const simMs = useKubeStore(selectSimMs);
  const { t } = useTranslation();
  return (
    <span className="sim-time" data-testid="sim-time" data-sim-ms={simMs} title={t('toolbar.simTime')} aria-label={t('toolbar.simTime')}>
      {formatSimTime(simMs)}
    </span>
  );
});

/** Pending timers, recomputed per batch; the strip re-renders only when its text changes. */
let lastTimers: { key: string; value: PendingTimer[] } = { key: '', value: [] };
const selectPendingTimers = (s: KubeState): PendingTimer[] => {
  const value = pendingTimers(s.deadlines, s.startMs + s.simMs);
  const key = value.map((p) => `${p.reason}:${p.secondsLeft}:${p.count}:${p.label}`).join('|');
  if (key !== lastTimers.key) lastTimers = { key, value };
  return lastTimers.value;
};

/**
 * The "Pending timers" strip: `[data-testid=countdown][data-reason=…]`, seconds left in simulated
 * time. Each chip reads whole: time, reason and the nearest timer's object ("9:59 progress
 * deadline peekcart", "4:35 eviction peekcart-7c9f-x ×2"); in a narrow window the strip takes a
 * toolbar row of its own (app.css). The title holds the nearest timer's label.
 */
const PendingTimers = memo(function PendingTimers() {
  const timers = useKubeStore(selectPendingTimers);
  const { t } = useTranslation();
  if (!timers.length) return null;
  return (
    <span className="pending-timers" role="list" aria-label={t('sequence.pendingTimers')} title={t('toolbar.countdown')}>
      <Icon name="clock" />
      {timers.map((p) => (
        <span
          key={p.reason}
          role="listitem"
          className={`countdown reason-${p.reason}`}
          data-testid="countdown"
          data-reason={p.reason}
          data-seconds={p.secondsLeft}
          title={`${formatCountdown(p.secondsLeft * 1000)} ${t(`sequence.reason.${p.reason}`)}${p.count > 1 ? ` ×${p.count}` : ''}: ${p.label}${p.count > 1 ? ` (+${p.count - 1})` : ''}`}
        >
          <span className="countdown-time">{formatCountdown(p.secondsLeft * 1000)}</span>{' '}
          <span className="countdown-text">
            {t(`sequence.reason.${p.reason}`)}
            {p.object ? ` ${p.object.slice(p.object.lastIndexOf('/') + 1)}` : ''}
          </span>
          {p.count > 1 && <span className="more"> ×{p.count}</span>}
        </span>
      ))}
    </span>
  );
});

const Playback = memo(function Playback() {
  const running = useKubeStore(selectRunning);
  const speed = useKubeStore(selectSpeed);
  const { t } = useTranslation();
  return (
    <span className="playback">
      <button
        type="button"
        data-testid="play-pause"
        aria-label={running ? t('toolbar.pauseLabel') : t('toolbar.playLabel')}
        title={`${running ? t('toolbar.pause') : t('toolbar.play')} (space)`}
        onClick={() => void (running ? cluster.pause() : cluster.play())}
      >
        <Icon name={running ? 'pause' : 'play'} /> {running ? t('toolbar.pause') : t('toolbar.play')}
      </button>
      <button
        type="button"
        data-testid="step"
        aria-label={t('toolbar.stepTitle')}
        title={`${t('toolbar.stepTitle')} (.)`}
        onClick={() => void cluster.step()}
      >
        <Icon name="step" /> <span className="label">{t('toolbar.step')}</span>
      </button>
      <button
        type="button"
        data-testid="fast-forward"
        aria-label={t('sequence.fastForwardTitle')}
        title={t('sequence.fastForwardTitle')}
        onClick={() => void cluster.fastForward()}
      >
        <Icon name="step" />
        <Icon name="step" /> <span className="label">{t('sequence.fastForward')}</span>
      </button>
      <label>
        {t('toolbar.speed')}{' '}
        <select
          data-testid="speed"
          aria-label={t('toolbar.speed')}
          value={speed}
          onChange={(e) => void cluster.setSpeed(Number(e.target.value))}
        >
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              ×{s}
            </option>
          ))}
        </select>
      </label>
    </span>
  );
});

const selectConnectionDetail = (s: KubeState) => s.connectionDetail;

/**
 * Timing profile, connection state and the notice. A failed connection with a reason (attaching
 * to an unreachable API server) shows the reason itself, `[data-testid=connection-error]`, in
 * place of the bare "cluster failed" badge; EngineControl offers the way back.
 */
const Status = memo(function Status() {
  const connection = useKubeStore(selectConnection);
  const detail = useKubeStore(selectConnectionDetail);
  const notice = useKubeStore(selectNotice);
  const profile = useKubeStore(selectProfile);
  const failure = connection === 'failed' && detail ? detail : null;
  return (
    <span className="status">
      {profile !== 'kubernetes-defaults' && (
        <span className="badge warn" title="timings are shortened">
          {profile} timings
        </span>
      )}
      {connection !== 'ready' && !failure && <span className={`badge conn-${connection}`}>cluster {connection}</span>}
      {failure && (
        <span className="notice error connection-error" role="alert" data-testid="connection-error" title={failure}>
          {failure}
        </span>
      )}
      {failure && engineStore.getState().base !== null && <EngineBack />}
      {notice && (
        <span className="notice error" data-testid="notice">
          {notice}
        </span>
      )}
    </span>
  );
});

export function Toolbar() {
  const { t } = useTranslation();
  return (
    <header className="toolbar">
      <span className="brand">
        <img src="/favicon.svg" alt="" width={20} height={20} /> kube-relay
        <span className="version">Kubernetes v1.33 (simulated)</span>
      </span>
      <SimTime />
      <Playback />
      <TimelineBar />
      {/* below 1600 px this pair takes the toolbar's second row (app.css): the chip never pushes the controls onto a third */}
      <span className="toolbar-row2">
        <ActingAsChip />
        <PendingTimers />
      </span>
      <Status />
      <span className="spacer" />
      <EngineControl />
      <ExamplesButton />
      <button
        type="button"
        data-testid="reset"
        aria-label={t('toolbar.resetTitle')}
        title={t('toolbar.resetTitle')}
        onClick={() => void cluster.reset()}
      >
        <Icon name="reset" /> <span className="label">{t('toolbar.reset')}</span>
      </button>
      <TourMenu />
      <Preferences />
      <HelpDialog />
    </header>
  );
}

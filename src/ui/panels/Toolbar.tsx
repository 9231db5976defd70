/** Simulated time and playback: time, play/pause, step, speed, the next deadline, reset. */
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import { selectConnection, selectDeadlineList, selectMoreDeadlines, selectNextDeadline, selectNotice, selectProfile, selectRunning, selectSimMs, selectSpeed } from '../store/selectors';
import { cluster } from '../cluster-client';
import { formatSimTime } from '../format';
import { SPEEDS } from '../../worker/protocol';
import { Icon } from '../Icon';
import { TimelineBar } from '../timeline/TimelineBar';
import { Preferences } from './Preferences';
import { HelpDialog } from './HelpDialog';

const SimTime = memo(function SimTime() {
  const simMs = useKubeStore(selectSimMs);
  const { t } = useTranslation();
  return (
    <span className="sim-time" data-testid="sim-time" data-sim-ms={simMs} title={t('toolbar.simTime')} aria-label={t('toolbar.simTime')}>
      {formatSimTime(simMs)}
    </span>
  );
});

const Countdown = memo(function Countdown() {
  const text = useKubeStore(selectNextDeadline);
  const more = useKubeStore(selectMoreDeadlines);
  const all = useKubeStore(selectDeadlineList);
  const { t } = useTranslation();
  if (!text) return null;
  return (
    <span className="countdown" data-testid="countdown" title={`${t('toolbar.countdown')}\n${all}`}>
      <Icon name="clock" /> <span className="countdown-text">{text}</span>
      {more > 0 && <span className="more"> (+{more})</span>}
    </span>
  );
});

const Playback = memo(function Playback() {
  const running = useKubeStore(selectRunning);
  const speed = useKubeStore(selectSpeed);
  const { t } = useTranslation();
  return (
    <span className="playback">
      <button type="button" data-testid="play-pause" aria-label={running ? t('toolbar.pauseLabel') : t('toolbar.playLabel')} title={`${running ? t('toolbar.pause') : t('toolbar.play')} (space)`} onClick={() => void (running ? cluster.pause() : cluster.play())}>
        <Icon name={running ? 'pause' : 'play'} /> {running ? t('toolbar.pause') : t('toolbar.play')}
      </button>
      <button type="button" data-testid="step" aria-label={t('toolbar.stepTitle')} title={`${t('toolbar.stepTitle')} (.)`} onClick={() => void cluster.step()}>
        <Icon name="step" /> {t('toolbar.step')}
      </button>
      <label>
        {t('toolbar.speed')}{' '}
        <select data-testid="speed" aria-label={t('toolbar.speed')} value={speed} onChange={(e) => void cluster.setSpeed(Number(e.target.value))}>
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

const Status = memo(function Status() {
  const connection = useKubeStore(selectConnection);
  const notice = useKubeStore(selectNotice);
  const profile = useKubeStore(selectProfile);
  return (
    <span className="status">
      {profile !== 'kubernetes-defaults' && <span className="badge warn" title="timings are shortened">{profile} timings</span>}
      {connection !== 'ready' && <span className={`badge conn-${connection}`}>cluster {connection}</span>}
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
      <Countdown />
      <Status />
      <span className="spacer" />
      <button type="button" data-testid="reset" aria-label={t('toolbar.resetTitle')} title={t('toolbar.resetTitle')} onClick={() => void cluster.reset()}>
        <Icon name="reset" /> {t('toolbar.reset')}
      </button>
      <Preferences />
      <HelpDialog />
    </header>
  );
}

/** Simulated time and playback: time, play/pause, step, speed, the next deadline, reset. */
import { memo } from 'react';
import { useKubeStore } from '../store/store';
import { selectConnection, selectDeadlineList, selectMoreDeadlines, selectNextDeadline, selectNotice, selectProfile, selectRunning, selectSimMs, selectSpeed } from '../store/selectors';
import { cluster } from '../cluster-client';
import { formatSimTime } from '../format';
import { SPEEDS } from '../../worker/protocol';
import { Icon } from '../Icon';

const SimTime = memo(function SimTime() {
  const simMs = useKubeStore(selectSimMs);
  return (
    <span className="sim-time" data-testid="sim-time" data-sim-ms={simMs} title="simulated time since the cluster started">
      {formatSimTime(simMs)}
    </span>
  );
});

const Countdown = memo(function Countdown() {
  const text = useKubeStore(selectNextDeadline);
  const more = useKubeStore(selectMoreDeadlines);
  const all = useKubeStore(selectDeadlineList);
  if (!text) return null;
  return (
    <span className="countdown" data-testid="countdown" title={`What the cluster already knows will happen:\n${all}`}>
      <Icon name="clock" /> <span className="countdown-text">{text}</span>
      {more > 0 && <span className="more"> (+{more})</span>}
    </span>
  );
});

const Playback = memo(function Playback() {
  const running = useKubeStore(selectRunning);
  const speed = useKubeStore(selectSpeed);
  return (
    <span className="playback">
      <button type="button" data-testid="play-pause" aria-label={running ? 'Pause' : 'Play'} onClick={() => void (running ? cluster.pause() : cluster.play())}>
        <Icon name={running ? 'pause' : 'play'} /> {running ? 'pause' : 'play'}
      </button>
      <button type="button" data-testid="step" title="run to the next hop" onClick={() => void cluster.step()}>
        <Icon name="step" /> step
      </button>
      <label>
        speed{' '}
        <select data-testid="speed" value={speed} onChange={(e) => void cluster.setSpeed(Number(e.target.value))}>
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
  return (
    <header className="toolbar">
      <span className="brand">
        <img src="/favicon.svg" alt="" width={20} height={20} /> kube-relay
        <span className="version">Kubernetes v1.33 (simulated)</span>
      </span>
      <SimTime />
      <Playback />
      <Countdown />
      <Status />
      <span className="spacer" />
      <button type="button" data-testid="reset" title="a fresh cluster" onClick={() => void cluster.reset()}>
        <Icon name="reset" /> reset
      </button>
    </header>
  );
}

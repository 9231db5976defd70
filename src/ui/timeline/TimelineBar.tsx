/** The replay slider over recorded simulated time, and the button back to the live cluster. */
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import { goLive, scrubTo } from '../store/actions';
import type { KubeState } from '../store/store';
import { formatSimTime } from '../format';

const selectLiveSec = (s: KubeState) => Math.floor(s.liveMs / 1000);
const selectStartMs = (s: KubeState) => s.timelineStartMs;
const selectReplayAt = (s: KubeState) => s.replayAt;
/** The shown moment in whole seconds (while scrubbed: the recorded frame's, as the toolbar shows). */
const selectShownSec = (s: KubeState) => Math.floor(s.simMs / 1000);

export const TimelineBar = memo(function TimelineBar() {
  const { t } = useTranslation();
  // whole simulated seconds: the slider re-renders once per simulated second, not per batch
  const liveSec = useKubeStore(selectLiveSec);
  const startMs = useKubeStore(selectStartMs);
  const startSec = Math.floor(startMs / 1000);
  const replayAt = useKubeStore(selectReplayAt);
  const replaying = replayAt !== null;
  // The badge names the moment the views show: the frame at or before the slider's position
  // (frames are a second apart at best, coarser in old history or across a fast-forward), so
  // it reads the toolbar's clock, not the slider's position.
  const shownSec = useKubeStore(selectShownSec);
  const value = replaying ? Math.floor(replayAt / 1000) : liveSec;
  return (
    <span className={`timeline ${replaying ? 'replaying' : ''}`}>
      <input
        type="range"
        data-testid="timeline"
        aria-label={t('timeline.label')}
        title={t('timeline.label')}
        min={startSec}
        max={Math.max(liveSec, startSec)}
        step={1}
        value={value}
        aria-valuetext={formatSimTime(value * 1000)}
        onChange={(e) => {
          const sec = Number(e.target.value);
          if (sec >= liveSec) goLive();
          else scrubTo(sec <= startSec ? startMs : sec * 1000 + 999);
        }}
      />
      {replaying ? (
        <>
          <span className="badge warn" data-testid="replay-badge" title={t('timeline.replayingTitle')}>
            {t('timeline.replaying')} {formatSimTime(shownSec * 1000)}
          </span>
          <button type="button" className="mini primary" data-testid="timeline-live" aria-label={t('timeline.liveLabel')} onClick={goLive}>
            {t('timeline.live')}
          </button>
        </>
      ) : (
        <span className="live-dot" aria-hidden="true" />
      )}
    </span>
  );
});

/**
 * The running tour: the current narration in the UI language, `[data-testid=tour-next]` to
 * run the next steps on the live cluster, fast-forward while they wait, and a way to leave.
 */
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { noteText, useTourStore, type TourState } from './tour-store';
import { exitTour, fastForwardTour, nextTourStep } from './tour-actions';

const selectTour = (s: TourState) => s.tour;
const selectPending = (s: TourState) => s.script?.pending ?? 0;

export const TourPanel = memo(function TourPanel() {
  const tour = useTourStore(selectTour);
  const pending = useTourStore(selectPending);
  const { t, i18n } = useTranslation();
  if (!tour) return null;
  const lang = i18n.language;
  const seg = tour.segments[tour.index];
  const busy = tour.waitingFor !== null || pending > 0;
  const last = tour.index >= tour.segments.length - 1 && !seg?.after.length;
  return (
    <section
      className="tour-panel"
      role="region"
      aria-label={t('tours.region')}
      data-testid="tour-panel"
      data-tour={tour.id}
      data-step={tour.index}
      data-busy={busy}
    >
      <header className="pane-header">
        <h2>{noteText(tour.title, lang)}</h2>
        <span className="spacer" />
        <span className="tour-progress">{t('tours.progress', { n: tour.index + 1, total: tour.segments.length })}</span>
        <button
          type="button"
          className="mini"
          data-testid="tour-exit"
          aria-label={t('tours.exit')}
          title={t('tours.exit')}
          onClick={() => void exitTour()}
        >
          ✕
        </button>
      </header>
      <p className="tour-note" data-testid="tour-note" lang={seg?.note[lang] ? lang : 'en'}>
        {seg ? noteText(seg.note, lang) : ''}
      </p>
      <footer className="tour-actions">
        {busy ? (
          <>
            <span className="tour-running">{t('tours.running')}</span>
            <button
              type="button"
              data-testid="tour-fast-forward"
              title={t('tours.fastForwardTitle')}
              onClick={() => void fastForwardTour()}
            >
              {t('tours.fastForward')}
            </button>
          </>
        ) : last ? (
          <>
            <span data-testid="tour-done">{t('tours.done')}</span>
            <button type="button" onClick={() => void exitTour()}>
              {t('tours.exit')}
            </button>
          </>
        ) : (
          <button
            type="button"
            className="primary"
            data-testid="tour-next"
            title={t('tours.nextTitle')}
            onClick={() => void nextTourStep()}
          >
            {t('tours.next')}
          </button>
        )}
      </footer>
    </section>
  );
});

/**
 * The toolbar's Tours button and the tour list (`[data-testid=tour-list]`, one
 * `[data-testid=tour][data-tour=ID]` per tour); the running tour's narration is TourPanel.
 */
import { memo, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTourStore, type TourState } from './tour-store';
import { openTourList, startTour } from './tour-actions';
import { TOURS } from './catalog';
import { cluster } from '../cluster-client';
import { TourPanel } from './TourPanel';

const selectListOpen = (s: TourState) => s.listOpen;

function TourList() {
  const { t, i18n } = useTranslation();
  const [titles, setTitles] = useState<Record<string, Record<string, string>>>({});
  useEffect(() => {
    let live = true;
    void Promise.all(TOURS.map(async (f) => [f.id, (await cluster.parseTour(f.text)).title] as const)).then((all) => {
      if (live) setTitles(Object.fromEntries(all));
    });
    return () => {
      live = false;
    };
  }, []);
  const lang = i18n.language;
  return (
    <div className="help-backdrop" onClick={() => openTourList(false)}>
      <div
        className="help tour-list"
        role="dialog"
        aria-modal="true"
        aria-label={t('tours.title')}
        data-testid="tour-list"
        onClick={(e) => e.stopPropagation()}
      >
        <header className="pane-header">
          <h2>{t('tours.title')}</h2>
          <span className="spacer" />
          <button type="button" className="mini" aria-label={t('tours.close')} title={t('tours.close')} onClick={() => openTourList(false)}>
            ✕
          </button>
        </header>
        <p className="tour-hint">{t('tours.hint')}</p>
        <ul>
          {TOURS.map((f) => {
            const title = titles[f.id]?.[lang] ?? titles[f.id]?.en ?? f.id;
            return (
              <li key={f.id}>
                <button
                  type="button"
                  data-testid="tour"
                  data-tour={f.id}
                  aria-label={t('tours.start', { title })}
                  onClick={() => void startTour(f.id)}
                >
                  {title}
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}

export const TourMenu = memo(function TourMenu() {
  const open = useTourStore(selectListOpen);
  const { t } = useTranslation();
  return (
    <>
      <button
        type="button"
        data-testid="tours"
        aria-label={t('tours.openTitle')}
        title={t('tours.openTitle')}
        onClick={() => openTourList(!open)}
      >
        {t('tours.open')}
      </button>
      {open && <TourList />}
      <TourPanel />
    </>
  );
});

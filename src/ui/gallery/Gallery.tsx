/**
 * The examples gallery (issue 7 §4): the seed's peekcart app (one file, and as a kustomize
 * base with dev/prod overlays) and every real manifest of src/examples/real with its origin
 * (SOURCES.md: repository and commit, upstream paths, licence, what it shows). Opening an
 * example puts its files into editor tabs (path per tab); nothing is applied until Apply
 * (or Apply -k for kustomize examples).
 */
import { memo, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EXAMPLES, type Example } from '../../examples/examples';
import { openFiles } from '../editor/editor-bridge';
import { setNotice } from '../store/actions';
import { RichText } from './RichText';
import { setGalleryOpen, useGalleryOpen } from './gallery-state';
import { startTour } from '../tours/tour-actions';

async function openExample(ex: Example): Promise<void> {
  try {
    openFiles(await ex.load(), ex.main);
    setGalleryOpen(false);
  } catch (e) {
    setNotice(e instanceof Error ? e.message : String(e));
  }
}

const ExampleCard = memo(function ExampleCard({ ex }: { ex: Example }) {
  const { t } = useTranslation();
  const open = () => void openExample(ex);
  return (
    <li
      className="example"
      data-testid="example"
      data-example={ex.id}
      role="button"
      tabIndex={0}
      aria-label={t('gallery.openLabel', { title: ex.title })}
      onClick={open}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          open();
        }
      }}
    >
      <div className="example-head">
        <span className="example-title">{ex.title}</span>
        {ex.kustomizeDirs && <span className="badge">kustomize</span>}
      </div>
      <p className="example-summary">
        <RichText text={ex.summary} />
      </p>
      {ex.tour && (
        <button
          type="button"
          className="mini"
          data-testid="example-tour"
          data-tour={ex.tour}
          onClick={(e) => {
            e.stopPropagation();
            setGalleryOpen(false);
            void startTour(ex.tour!);
          }}
        >
          {t('gallery.tour')}
        </button>
      )}
      {ex.source && (
        <p className="example-source" data-testid="example-source">
          {t('gallery.source')}{' '}
          <a href={ex.source.url} target="_blank" rel="noopener noreferrer" onClick={(e) => e.stopPropagation()}>
            {ex.source.repository}
          </a>{' '}
          · <RichText text={ex.source.paths} /> · {t('gallery.license')} {ex.source.license}
        </p>
      )}
    </li>
  );
});

export const Gallery = memo(function Gallery() {
  const open = useGalleryOpen();
  const { t } = useTranslation();
  const [filter, setFilter] = useState('');
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setGalleryOpen(false);
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [open]);
  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return q ? EXAMPLES.filter((e) => `${e.title} ${e.summary} ${e.source?.repository ?? ''}`.toLowerCase().includes(q)) : EXAMPLES;
  }, [filter]);
  if (!open) return null;
  const groups: [Example['group'], string][] = [
    ['peekcart', t('gallery.peekcart')],
    ['operator', t('gallery.operator')],
    ['real', t('gallery.real')],
  ];
  return (
    <div className="help-backdrop" onClick={() => setGalleryOpen(false)}>
      <div
        className="gallery"
        role="dialog"
        aria-modal="true"
        aria-label={t('gallery.title')}
        data-testid="gallery"
        onClick={(e) => e.stopPropagation()}
      >
        <header className="pane-header">
          <h2>{t('gallery.title')}</h2>
          <input
            className="gallery-filter"
            type="search"
            placeholder={t('gallery.filter')}
            aria-label={t('gallery.filter')}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
          <span className="spacer" />
          <button type="button" className="mini" aria-label={t('gallery.close')} onClick={() => setGalleryOpen(false)}>
            ✕
          </button>
        </header>
        <p className="gallery-hint muted">{t('gallery.hint')}</p>
        <div className="gallery-body">
          {groups.map(([g, title]) => {
            const items = shown.filter((e) => e.group === g);
            return items.length ? (
              <section key={g} className="gallery-group">
                <h3>{title}</h3>
                {g === 'real' && <p className="muted gallery-note">{t('gallery.realNote')}</p>}
                <ul className="examples">
                  {items.map((ex) => (
                    <ExampleCard key={ex.id} ex={ex} />
                  ))}
                </ul>
              </section>
            ) : null;
          })}
          {!shown.length && <p className="muted">{t('gallery.none')}</p>}
        </div>
      </div>
    </div>
  );
});

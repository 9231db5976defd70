/**
 * The question before a link's manifest is applied (`&apply=1`): what the link would apply,
 * listed as kubectl names it, and two buttons. Hook: `[data-testid=share-confirm]`,
 * `[data-testid=share-object]`, `share-apply`, `share-cancel`.
 */
import { useEffect, useRef } from 'react';
import { useStore } from 'zustand';
import { useTranslation } from 'react-i18next';
import { answerApply, confirmStore } from './confirm-apply';

export function ShareConfirm() {
  const question = useStore(confirmStore, (s) => s.question);
  const { t } = useTranslation();
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (question) cancel.current?.focus();
  }, [question]);
  if (!question) return null;
  return (
    <div className="help-backdrop">
      <div
        className="help share-confirm"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="share-confirm-title"
        data-testid="share-confirm"
        onKeyDown={(e) => e.key === 'Escape' && answerApply(false)}
      >
        <header className="pane-header">
          <h2 id="share-confirm-title">{t('share.title')}</h2>
        </header>
        <p className="share-intro">{t('share.intro', { source: question.source })}</p>
        {question.objects.length ? (
          <ul className="share-objects">
            {question.objects.map((o, i) => (
              <li key={i} data-testid="share-object" className={o.error ? 'error' : undefined}>
                <code>{o.object}</code>
                {o.namespace ? <span className="muted"> -n {o.namespace}</span> : null}
                {o.error ? <div className="share-error">{o.error}</div> : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="share-intro muted">{t('share.none')}</p>
        )}
        <footer className="share-actions">
          <button type="button" ref={cancel} data-testid="share-cancel" onClick={() => answerApply(false)}>
            {t('share.cancel')}
          </button>
          <button type="button" className="primary" data-testid="share-apply" onClick={() => answerApply(true)}>
            {t('share.apply')}
          </button>
        </footer>
      </div>
    </div>
  );
}

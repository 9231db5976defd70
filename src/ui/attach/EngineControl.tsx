/**
 * The toolbar's engine choice and badge: `[data-testid=engine-select]` (in-browser engine, an
 * API server through this app's /k8s proxy, or an API server URL) and
 * `[data-testid=engine-badge]`, which always names the engine the views follow
 * ("in-browser engine", "kube-relay apiserver http://127.0.0.1:6443",
 * "cluster via kubectl proxy http://127.0.0.1:8001"). Changing it reloads the page (engine.ts).
 * When attaching failed the badge reads "not attached: BASE" for screen readers only: the
 * toolbar's Status shows the error itself and the way back (EngineBack).
 */
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import { selectConnection } from '../store/selectors';
import { PROXY_BASE, engineLabel, switchEngine, useEngine } from './engine';

export function EngineControl() {
  const { t } = useTranslation();
  const base = useEngine((s) => s.base);
  const label = useEngine(engineLabel);
  const inferred = useEngine((s) => !!s.info && !s.info.relayStreamed);
  const failed = useKubeStore(selectConnection) === 'failed' && base !== null;
  const value = base === null ? 'worker' : base === PROXY_BASE ? 'proxy' : 'direct';
  const choose = (v: string) => {
    if (v === 'worker') return switchEngine(null);
    if (v === 'proxy') return switchEngine(PROXY_BASE);
    const url = prompt(t('attach.directPrompt'), base && base !== PROXY_BASE ? base : 'http://127.0.0.1:6443');
    if (url) switchEngine(url.trim());
  };
  return (
    <span className="engine-control" title={t('attach.engineTitle')}>
      <select data-testid="engine-select" aria-label={t('attach.engine')} value={value} onChange={(e) => choose(e.target.value)}>
        <option value="worker">{t('attach.worker')}</option>
        <option value="proxy">{t('attach.proxy')}</option>
        <option value="direct">{base && base !== PROXY_BASE ? base : t('attach.direct')}</option>
      </select>
      <span
        className={`badge engine-badge${base ? ' attached' : ''}${failed ? ' failed' : ''}`}
        data-testid="engine-badge"
        data-engine={base ? 'attached' : 'worker'}
        title={failed ? (base ?? undefined) : inferred ? t('attach.inferred') : label}
      >
        {failed ? t('attach.failedBadge', { base }) : label}
        {inferred && !failed ? ' · inferred relay' : ''}
      </span>
    </span>
  );
}

/** `[data-testid=engine-back]`: leaves an API server that could not be reached (reloads with the in-browser engine). */
export function EngineBack() {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="mini engine-back"
      data-testid="engine-back"
      title={t('attach.backToWorkerTitle')}
      onClick={() => switchEngine(null)}
    >
      {t('attach.backToWorker')}
    </button>
  );
}

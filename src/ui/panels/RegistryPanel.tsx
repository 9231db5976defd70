/**
 * The simulated container registry: which image references Pods use, and which are marked
 * missing (pulls of those fail with ErrImagePull, then ImagePullBackOff — the kubelet's own
 * back-off). Marking goes through the worker, so it is part of the session log.
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import { selectObjects } from '../store/selectors';
import { cluster } from '../cluster-client';

/** "nginx" → "docker.io/library/nginx:latest", as the engine normalizes references. */
function normalize(image: string): string {
  let ref = image;
  const hasDigest = ref.includes('@');
  const lastSlash = ref.lastIndexOf('/');
  const hasTag = ref.slice(lastSlash + 1).includes(':');
  if (!hasTag && !hasDigest) ref += ':latest';
  const first = ref.split('/')[0];
  const hasRegistry = ref.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (!hasRegistry) ref = `docker.io/${ref.includes('/') ? ref : `library/${ref}`}`;
  return ref;
}

export function RegistryPanel() {
  const { t } = useTranslation();
  const objects = useKubeStore(selectObjects);
  const [missing, setMissing] = useState<string[]>([]);
  const [input, setInput] = useState('');
  const refresh = () => void cluster.missingImages().then(setMissing);
  useEffect(refresh, []);
  const inUse = useMemo(() => {
    const set = new Set<string>();
    for (const o of objects.values()) {
      if (o.object.kind !== 'Pod') continue;
      for (const c of [...(o.object.spec?.initContainers ?? []), ...(o.object.spec?.containers ?? [])] as { image?: string }[])
        if (c.image) set.add(c.image);
    }
    return [...set].sort();
  }, [objects]);
  const toggle = async (image: string, isMissing: boolean) => {
    // optimistic: the checkbox reflects the choice at once; the worker's answer confirms it
    const ref = normalize(image);
    setMissing((m) => (isMissing ? [...new Set([...m, ref])] : m.filter((x) => x !== ref && x !== image)));
    await cluster.setImageMissing(image, isMissing);
    refresh();
  };
  const missingSet = new Set(missing);
  return (
    <div className="registry-panel" data-testid="registry">
      <h3>{t('registry.title')}</h3>
      <p className="hint">{t('registry.hint')}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (input.trim()) void toggle(input.trim(), true).then(() => setInput(''));
        }}
      >
        <input
          aria-label={t('registry.markLabel')}
          placeholder={t('registry.markPlaceholder')}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          data-testid="registry-input"
        />
        <button type="submit" data-testid="registry-mark">
          {t('registry.mark')}
        </button>
      </form>
      <h4>{t('registry.inUse')}</h4>
      {inUse.length === 0 && <p className="hint">{t('registry.none')}</p>}
      <ul>
        {[...inUse, ...missing.filter((m) => !inUse.some((i) => normalize(i) === m))].map((image) => {
          const isMissing = missingSet.has(normalize(image)) || missingSet.has(image);
          return (
            <li key={image} data-testid="registry-image" data-image={image} data-missing={String(isMissing)}>
              <label>
                <input
                  type="checkbox"
                  checked={isMissing}
                  onChange={(e) => void toggle(image, e.target.checked)}
                  aria-label={`${t('registry.missing')}: ${image}`}
                />{' '}
                <code>{image}</code> {isMissing && <span className="badge ready-false">{t('registry.missing')}</span>}
              </label>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

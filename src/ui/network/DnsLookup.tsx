/**
 * The DNS lookup tool (issue 5 §4): `nslookup NAME` from a Pod in the chosen namespace, answered
 * by the engine's CoreDNS (src/cluster/dns/resolver.ts). The output is shown verbatim, as text,
 * with every query the stub resolver sent while walking its search path.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import { selectObjects } from '../store/selectors';
import { cluster } from '../cluster-client';
import type { DnsLookupResult } from '../../worker/protocol';
import { dnsNameSuggestions, namespaceOptions } from './suggestions';

export function DnsLookup() {
  const { t } = useTranslation();
  const objects = useKubeStore(selectObjects);
  const [name, setName] = useState('');
  const [namespace, setNamespace] = useState('default');
  const [result, setResult] = useState<DnsLookupResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const list = useMemo(() => [...objects.values()].map((o) => o.object), [objects]);
  const names = useMemo(() => dnsNameSuggestions(list), [list]);
  const namespaces = useMemo(() => namespaceOptions(list), [list]);

  const lookup = async () => {
    const q = (name.trim() || 'peekcart').replace(/^nslookup\s+/, '');
    setBusy(true);
    try {
      setResult(await cluster.dnsLookup(q, namespace));
      setError(null);
    } catch (e) {
      setResult(null);
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="net-section" aria-labelledby="net-dns-title">
      <h3 id="net-dns-title">{t('network.dnsTitle')}</h3>
      <p className="hint">{t('network.dnsHint')}</p>
      <form
        className="net-row"
        onSubmit={(e) => {
          e.preventDefault();
          void lookup();
        }}
      >
        <span className="prompt">$ nslookup</span>
        <input
          data-testid="dns-name"
          aria-label={t('network.dnsName')}
          placeholder="peekcart"
          list="net-dns-names"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <datalist id="net-dns-names">
          {names.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
        <label className="net-inline">
          {t('network.fromNamespace')}
          <select data-testid="dns-namespace" value={namespace} onChange={(e) => setNamespace(e.target.value)}>
            {namespaces.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" data-testid="dns-lookup" disabled={busy}>
          {t('network.lookup')}
        </button>
      </form>
      {(result || error) && (
        <div className="net-dns-result" data-status={result?.status ?? 'error'}>
          <pre className="net-output" data-testid="dns-output" aria-live="polite">
            {result ? result.output : <span className="stderr">{error}</span>}
          </pre>
          {result && result.queries.length > 0 && (
            <div className="net-queries" data-testid="dns-queries">
              <div className="muted">
                {t('network.queries')} · <code>{result.status}</code>
              </div>
              <ol>
                {result.queries.map((q, i) => (
                  <li key={i}>
                    <code>{q}</code>
                  </li>
                ))}
              </ol>
            </div>
          )}
        </div>
      )}
    </section>
  );
}

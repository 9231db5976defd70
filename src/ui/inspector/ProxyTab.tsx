/** A Node's kube-proxy rules, as `iptables-save` prints them on that node. */
import { useTranslation } from 'react-i18next';
import { cluster } from '../cluster-client';
import { useKubeStore } from '../store/store';
import type { KubeState } from '../store/store';
import { useWorkerQuery } from './useWorkerQuery';

/** Services and EndpointSlices change the rules: refetch when either collection changes size or content. */
const selectServiceVersion = (s: KubeState) => {
  let v = '';
  for (const o of s.objects.values())
    if (o.object.kind === 'EndpointSlice' || o.object.kind === 'Service') v += `${o.object.metadata.resourceVersion ?? ''},`;
  return v;
};

export function ProxyTab({ node }: { node: string }) {
  const { t } = useTranslation();
  const version = useKubeStore(selectServiceVersion);
  const [q] = useWorkerQuery(() => cluster.proxyRules(node), [node, version]);
  return (
    <div className="proxy" data-testid="inspector-proxy">
      <h3>{t('inspector.proxyRules', { node })}</h3>
      {q.state === 'loading' && <div className="muted placeholder">{t('inspector.loading')}</div>}
      {q.state === 'error' && <div className="error placeholder">{q.message}</div>}
      {q.state === 'done' &&
        (q.value === null ? (
          <div className="muted placeholder">{t('inspector.noProxy')}</div>
        ) : (
          <pre className="yaml iptables" data-testid="proxy-rules">
            {q.value}
          </pre>
        ))}
    </div>
  );
}

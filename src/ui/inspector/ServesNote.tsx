/**
 * The Pod inspector's note on what its containers serve: kube-relay models a few images'
 * servers (nginx, httpd … — their ports and pages); for any other program it *assumes* the
 * container listens on its declared (or probed) ports and answers 200 on every path, and says
 * so here (userland/images/web-servers.ts).
 */
import { useTranslation } from 'react-i18next';
import { cluster } from '../cluster-client';
import { useWorkerQuery } from './useWorkerQuery';
import type { KObject } from '../../cluster/api/types';

export function ServesNote({ pod }: { pod: KObject }) {
  const { t } = useTranslation();
  const ns = pod.metadata.namespace ?? 'default';
  const [q] = useWorkerQuery(() => cluster.podServes(ns, pod.metadata.name), [ns, pod.metadata.name, pod.metadata.resourceVersion]);
  if (q.state !== 'done') return null;
  const assumed = q.value.filter((c) => c.kind === 'assumed');
  if (!assumed.length) return null;
  return (
    <div className="note assumed-note" role="note" data-testid="inspector-assumed">
      {assumed.map((c) => (
        <div key={c.name} data-container={c.name}>
          {t('inspector.assumedServes', {
            container: c.name,
            image: c.image,
            ports: c.ports.length ? c.ports.join(', ') : t('inspector.noPorts'),
          })}
        </div>
      ))}
    </div>
  );
}

/**
 * Containers started the `docker run` way on this node's machine (cluster/docker): not
 * Kubernetes objects, so they are drawn as plain chips in the node card, marked "lost" while
 * their machine is off. Hook: `[data-testid=standalone-container][data-node][data-state]`.
 */
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useTourStore, type TourState } from '../../tours/tour-store';
import type { StandaloneContainer } from '../../../worker/protocol';

const EMPTY: StandaloneContainer[] = [];
const selectAll = (s: TourState) => (s.standalone.length ? s.standalone : EMPTY);

export const StandaloneContainers = memo(function StandaloneContainers({ node }: { node: string }) {
  const all = useTourStore(selectAll);
  const { t } = useTranslation();
  const mine = all.filter((c) => c.node === node);
  if (!mine.length) return null;
  return (
    <>
      {mine.map((c) => {
        const label = t('docker.label', { name: c.name, image: c.image, restart: c.restart, state: t(`docker.${c.state}`) });
        return (
          <span
            key={c.id}
            className={`standalone-container ${c.state}`}
            data-testid="standalone-container"
            data-node={node}
            data-name={c.name}
            data-state={c.state}
            title={label}
            aria-label={label}
            role="status"
          >
            <b>{t('docker.badge')}</b> {c.name}
          </span>
        );
      })}
    </>
  );
});

/**
 * A Service, EndpointSlice, PVC, PV, StorageClass, HPA, Ingress, or a StatefulSet / DaemonSet /
 * Job / CronJob: kind, name and one or two lines of its state (object-summary.ts). The test hooks
 * follow the style of docs/ui-hooks.md: `[data-testid=service-card][data-service=NS/NAME][data-endpoints=N]` …
 */
import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import type { ObjectFlowNode } from '../flow-types';
import { useKubeStore } from '../../store/store';
import { selectObject } from '../../store/selectors';
import { selectServiceEndpoints } from '../graph-selectors';
import { summarize } from '../object-summary';
import type { KObject } from '../../store/types';
import { Handles } from './Handles';

const TESTID: Record<string, [testid: string, attr: string]> = {
  Service: ['service-card', 'data-service'],
  EndpointSlice: ['endpointslice-card', 'data-slice'],
  PersistentVolumeClaim: ['pvc-card', 'data-pvc'],
  PersistentVolume: ['pv-card', 'data-pv'],
  StorageClass: ['storageclass-card', 'data-storageclass'],
  HorizontalPodAutoscaler: ['hpa-card', 'data-hpa'],
  Ingress: ['ingress-card', 'data-ingress'],
};

function hooks(o: KObject, endpoints: number): Record<string, string | number> {
  const ref = o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name;
  const t = TESTID[o.kind];
  if (!t) return { 'data-testid': 'object-card', 'data-kind': o.kind, 'data-name': ref };
  const out: Record<string, string | number> = { 'data-testid': t[0], [t[1]]: ref };
  if (o.kind === 'Service') out['data-endpoints'] = endpoints;
  if (o.kind === 'PersistentVolumeClaim' || o.kind === 'PersistentVolume') out['data-phase'] = String(o.status?.phase ?? 'Pending');
  return out;
}

export const ObjectCard = memo(function ObjectCard({ data }: NodeProps<ObjectFlowNode>) {
  const stored = useKubeStore(selectObject(data.key));
  const endpoints = useKubeStore(selectServiceEndpoints(data.key));
  if (!stored) return null;
  const o = stored.object;
  const sum = summarize(stored, endpoints);
  const phase = o.status?.phase as string | undefined;
  return (
    <div
      className={`card object kind-${o.kind.toLowerCase()} ${phase ? `phase-${phase.toLowerCase()}` : ''} ${o.kind === 'Service' && endpoints === 0 ? 'no-endpoints' : ''}`}
      title={`${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}\n${sum.lines.join('\n')}`}
      {...hooks(o, endpoints)}
    >
      <Handles />
      <div className="title">
        <span className="kind">{sum.kind}</span> {sum.name}
      </div>
      {sum.lines.map((l, i) => (
        <div className="subtitle" key={i}>
          {l}
        </div>
      ))}
    </div>
  );
});

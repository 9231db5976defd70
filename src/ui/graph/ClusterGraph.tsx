/**
 * The cluster as a React Flow graph. Subscribes only to the topology (which changes when
 * objects appear, vanish or bind); every card selects its own object (STYLE.md Part D §8).
 */
import { useEffect, useMemo, useState } from 'react';
import { ConnectionMode, ReactFlow, ReactFlowProvider, Background, useReactFlow, type NodeMouseHandler } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useKubeStore } from '../store/store';
import { selectTopology } from '../store/selectors';
import { select } from '../store/actions';
import { layoutGraph, type Layout } from './layout';
import type { GraphTopology } from '../store/types';

/** A layout function that remembers its previous result, so unchanged nodes keep their identity. */
function createRelayout(): (t: GraphTopology) => Layout {
  let prev: Layout | undefined;
  return (t) => (prev = layoutGraph(t, prev));
}
import { nodeTypes, edgeTypes } from './node-types';
import type { FlowNode } from './flow-types';
import { cluster } from '../cluster-client';
import { useTranslation } from 'react-i18next';

const onNodeClick: NodeMouseHandler<FlowNode> = (_e, node) => {
  if (node.type === 'pod' || node.type === 'workload') select(node.data.key);
  else if (node.type === 'nodeGroup' && node.data.key) select(node.data.key);
};

const proOptions = { hideAttribution: true };

function Graph() {
  const topology = useKubeStore(selectTopology);
  const [relayout] = useState(createRelayout);
  const layout = useMemo(() => relayout(topology), [relayout, topology]);
  const { fitView } = useReactFlow();
  const shape = `${topology.nodes.length}:${Math.max(0, ...layout.nodes.map((n) => (n.position.y + (n.height ?? 0)) | 0))}:${topology.deployments.length + topology.replicaSets.length}`;
  useEffect(() => {
    const id = requestAnimationFrame(() => void fitView({ padding: 0.04, duration: 200 }));
    return () => cancelAnimationFrame(id);
  }, [shape, fitView]);

  return (
    <ReactFlow
      nodes={layout.nodes}
      edges={layout.edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      connectionMode={ConnectionMode.Loose}
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable={false}
      onNodeClick={onNodeClick}
      fitView
      fitViewOptions={{ padding: 0.04 }}
      minZoom={0.2}
      proOptions={proOptions}
      data-testid="graph"
    >
      <Background gap={24} size={1} />
    </ReactFlow>
  );
}

export function ClusterGraph() {
  const { t } = useTranslation();
  return (
    <section className="pane graph-pane" aria-label={t('panes.cluster')}>
      <header className="pane-header">
        <h2>{t('panes.cluster')}</h2>
        <span className="legend">
          <i className="tone-ok" />Running <i className="tone-progress" />Pending/Creating <i className="tone-gone" />Terminating <i className="tone-error" />Error
        </span>
        <button type="button" className="mini" data-testid="add-node" aria-label={t('panes.addNodeLabel')} title={t('panes.addNodeLabel')} onClick={() => void cluster.addNode()}>
          {t('panes.addNode')}
        </button>
      </header>
      <div className="graph-host">
        <ReactFlowProvider>
          <Graph />
        </ReactFlowProvider>
      </div>
    </section>
  );
}

/**
 * The cluster as a React Flow graph. Subscribes only to the topology (which changes when
 * objects appear, vanish or bind) and the graph's view options; every card selects its own
 * object (STYLE.md Part D §8). The model (model.ts) is built synchronously; the blocks' positions
 * come from elkjs in its Web Worker (elk-runner.ts), the row placement standing in until then.
 */
import { useEffect, useMemo, useState } from 'react';
import { ConnectionMode, ReactFlow, ReactFlowProvider, Background, useReactFlow, type NodeMouseHandler } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useKubeStore } from '../store/store';
import { selectTopology } from '../store/selectors';
import { select } from '../store/actions';
import { layoutGraph, type Layout } from './layout';
import { buildModel, type GraphModel } from './model';
import { fromElk, toElkGraph, type Positions } from './elk-layout';
import { layoutInWorker } from './elk-runner';
import { nodeTypes, edgeTypes } from './node-types';
import type { FlowNode } from './flow-types';
import { cluster } from '../cluster-client';
import { useTranslation } from 'react-i18next';
import { LAYERS, toggleGroup, toggleLayer, useGraphView, type GraphView } from './view-store';
import { TrafficLayer } from './TrafficLayer';

const onNodeClick: NodeMouseHandler<FlowNode> = (_e, node) => {
  if (node.type === 'pod' || node.type === 'workload' || node.type === 'object') select(node.data.key);
  else if (node.type === 'podGroup') toggleGroup(node.data.id);
  else if (node.type === 'nodeGroup' && node.data.key) select(node.data.key);
};

const proOptions = { hideAttribution: true };
const selectView = (v: GraphView) => v;
const NO_POSITIONS: Positions = new Map();

/**
 * Remembers the previous layout (so unchanged nodes keep their identity) and the positions it
 * used (elk's next run keeps their order).
 */
function createRelayout() {
  let prev: Layout | undefined;
  let used: Positions = NO_POSITIONS;
  return {
    layout(model: GraphModel, positions: Positions): Layout {
      used = positions;
      return (prev = layoutGraph(model, positions, prev));
    },
    positions: () => used,
  };
}

function Graph() {
  const topology = useKubeStore(selectTopology);
  const view = useGraphView(selectView);
  const model = useMemo(() => buildModel(topology, view), [topology, view]);
  const [positions, setPositions] = useState<Positions>(NO_POSITIONS);
  const [relayout] = useState(createRelayout);
  useEffect(() => {
    let live = true;
    void layoutInWorker(toElkGraph(model, relayout.positions())).then((out) => {
      if (live && out) setPositions(fromElk(out));
    });
    return () => {
      live = false;
    };
  }, [model, relayout]);
  const layout = useMemo(() => relayout.layout(model, positions), [relayout, model, positions]);
  const { fitView } = useReactFlow();
  const shape = useMemo(() => {
    let w = 0;
    let h = 0;
    for (const n of layout.nodes) {
      if (n.parentId) continue;
      w = Math.max(w, n.position.x + (n.width ?? 0));
      h = Math.max(h, n.position.y + (n.height ?? 0));
    }
    return `${Math.round(w / 40)}:${Math.round(h / 40)}`;
  }, [layout]);
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
      minZoom={0.1}
      onlyRenderVisibleElements
      proOptions={proOptions}
      data-testid="graph"
    >
      <Background gap={24} size={1} />
      <TrafficLayer shownAs={model.shownAs} />
    </ReactFlow>
  );
}

/** The layer toggles (`[data-testid=layer-toggle][data-layer=…][aria-pressed]`). */
function LayerToggles() {
  const { t } = useTranslation();
  const layers = useGraphView((v) => v.layers);
  return (
    <span className="layer-toggles" role="group" aria-label={t('graph.layersLabel')}>
      {LAYERS.map((l) => (
        <button key={l} type="button" className="mini" data-testid="layer-toggle" data-layer={l} aria-pressed={layers[l]} title={t('graph.layerTitle', { layer: t(`graph.${l}`) })} onClick={() => toggleLayer(l)}>
          {t(`graph.${l}`)}
        </button>
      ))}
    </span>
  );
}

export function ClusterGraph() {
  const { t } = useTranslation();
  return (
    <section className="pane graph-pane" aria-label={t('panes.cluster')}>
      <header className="pane-header">
        <h2>{t('panes.cluster')}</h2>
        <LayerToggles />
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

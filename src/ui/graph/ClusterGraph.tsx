/**
 * The cluster as a React Flow graph. Subscribes only to the topology (which changes when
 * objects appear, vanish or bind) and the graph's view options; every card selects its own
 * object (docs/style.md#ui-state). The model (model.ts) is computed synchronously; the blocks'
 * positions come from elk-positions.ts: placement.ts at once (rows, order, y; a new card is
 * drawn in the same frame), then elkjs's layered layout from its Web Worker (x), the cards
 * gliding there for a moment (`.layout-settling`). The flow carries `data-layout=elk|provisional`
 * and `data-layout-count` (elk layouts done) for tests. The viewport fits the graph, but never
 * below {@link READABLE_ZOOM} (card text stays ≥ 9 px); beyond that the graph is panned,
 * starting at its top left.
 */
import { useEffect, useMemo, useState } from 'react';
import { ConnectionMode, ReactFlow, ReactFlowProvider, Background, Controls, useReactFlow, useStore, type NodeMouseHandler, type ReactFlowState } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useKubeStore } from '../store/store';
import { selectTopology } from '../store/selectors';
import { select } from '../store/actions';
import { layoutGraph, type Layout } from './layout';
import { buildModel, type GraphModel } from './model';
import { READABLE_ZOOM, type Pane, type Positions } from './placement';
import { useElkPositions } from './elk-positions';
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
/** The lowest zoom the automatic fit uses (placement.ts wraps long rows to fit the pane at it). */
export { READABLE_ZOOM };
const MAX_FIT_ZOOM = 1.3;
const FIT_PAD = 10;
/** Remembers the previous layout, so unchanged nodes keep their identity. */
function createRelayout() {
  let prev: Layout | undefined;
  return (model: GraphModel, positions: Positions): Layout => (prev = layoutGraph(model, positions, prev));
}

/** The pane's size rounded to 40 px steps (so a small resize does not move the cards). */
const selectPaneKey = (s: ReactFlowState) => `${Math.round(s.width / 40) * 40}x${Math.round(s.height / 40) * 40}`;

/**
 * The viewport that shows a `w`×`h` graph in a `pane`: fitted and centred, but not below
 * {@link READABLE_ZOOM}; a graph bigger than that starts at its top left (the rest is panned to).
 */
export function fitViewport(w: number, h: number, pane: Pane): { x: number; y: number; zoom: number } {
  const zoom = Math.min(MAX_FIT_ZOOM, Math.max(READABLE_ZOOM, Math.min((pane.width - 2 * FIT_PAD) / w, (pane.height - 2 * FIT_PAD) / h)));
  const x = w * zoom <= pane.width - 2 * FIT_PAD ? (pane.width - w * zoom) / 2 : FIT_PAD;
  const y = h * zoom <= pane.height - 2 * FIT_PAD ? (pane.height - h * zoom) / 2 : FIT_PAD;
  return { x, y, zoom };
}

/** The zoom controls' fit: the whole graph, however small (the automatic fit keeps text readable). */
const fitViewOptions = { padding: 0.04, duration: 200 };

function Graph() {
  const { t } = useTranslation();
  const ariaLabels = useMemo(
    () => ({ 'controls.ariaLabel': t('graph.controls'), 'controls.zoomIn.ariaLabel': t('graph.zoomIn'), 'controls.zoomOut.ariaLabel': t('graph.zoomOut'), 'controls.fitView.ariaLabel': t('graph.fitView') }),
    [t],
  );
  const topology = useKubeStore(selectTopology);
  const view = useGraphView(selectView);
  const paneKey = useStore(selectPaneKey);
  const pane = useMemo<Pane>(() => {
    const [width, height] = paneKey.split('x').map(Number);
    return { width, height };
  }, [paneKey]);
  const model = useMemo(() => buildModel(topology, view), [topology, view]);
  const elk = useElkPositions(model, pane);
  const [relayout] = useState(createRelayout);
  const layout = useMemo(() => relayout(model, elk.positions), [relayout, model, elk.positions]);
  const { setViewport } = useReactFlow();
  const size = useMemo(() => {
    let w = 0;
    let h = 0;
    for (const n of layout.nodes) {
      if (n.parentId) continue;
      w = Math.max(w, n.position.x + (n.width ?? 0));
      h = Math.max(h, n.position.y + (n.height ?? 0));
    }
    return `${Math.round(w / 20) * 20}:${Math.round(h / 20) * 20}`;
  }, [layout]);
  const paneW = useStore((s: ReactFlowState) => s.width);
  const paneH = useStore((s: ReactFlowState) => s.height);
  useEffect(() => {
    if (paneW <= 0 || paneH <= 0) return;
    const [w, h] = size.split(':').map(Number);
    if (w <= 0 || h <= 0) return;
    const id = requestAnimationFrame(() => void setViewport(fitViewport(w, h, { width: paneW, height: paneH }), { duration: 200 }));
    return () => cancelAnimationFrame(id);
  }, [size, paneW, paneH, setViewport]);

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
      minZoom={0.1}
      maxZoom={2}
      proOptions={proOptions}
      ariaLabelConfig={ariaLabels}
      className={elk.settling ? 'layout-settling' : undefined}
      data-testid="graph"
      data-layout={elk.source}
      data-layout-count={elk.layouts}
    >
      <Background gap={24} size={1} />
      <Controls showInteractive={false} position="bottom-right" fitViewOptions={fitViewOptions} />
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

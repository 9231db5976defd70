/**
 * The cluster as a React Flow graph. Subscribes only to the topology (which changes when
 * objects appear, vanish or bind) and the graph's view options; every card selects its own
 * object (docs/style.md#ui-state). The model (model.ts) is computed synchronously; the blocks'
 * positions come from elk-positions.ts: placement.ts at once (rows, order, y; a new card is
 * drawn in the same frame), then elkjs's layered layout from its Web Worker (x), the cards
 * gliding there for a moment (`.layout-settling`). The flow carries `data-layout=elk|provisional`
 * and `data-layout-count` (elk layouts done) for tests. The viewport fits the graph, but never
 * below {@link MIN_FIT_ZOOM} (rows wrap to fit at {@link READABLE_ZOOM}); beyond that the graph is panned,
 * starting at its top left. Each change of the graph's size fits it again, until the person pans
 * or zooms (the fit button resumes it). Cards are as wide as their text (model.ts measures it
 * with text-measure.ts, once per distinct string).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  ConnectionMode,
  ReactFlow,
  type FitViewOptions,
  ReactFlowProvider,
  Background,
  Controls,
  useReactFlow,
  useStore,
  type NodeMouseHandler,
  type ReactFlowState,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { kubeStore, useKubeStore } from '../store/store';
import { measureText } from './text-measure';
import { summarize } from './object-summary';
import { selectServiceEndpoints } from './graph-selectors';
import type { Sizing } from './model';
import { selectTopology } from '../store/selectors';
import { select } from '../store/actions';
import { layoutGraph, type Layout } from './layout';
import { buildModel, type GraphModel } from './model';
import { selectRunningNames, useControllers } from '../controllers/controller-store';
import { READABLE_ZOOM, type Pane, type Positions } from './placement';
import { useElkPositions } from './elk-positions';
import { nodeTypes, edgeTypes } from './node-types';
import type { FlowNode } from './flow-types';
import { cluster } from '../cluster-client';
import { useTranslation } from 'react-i18next';
import { LAYERS, toggleGroup, toggleLayer, useGraphView, type GraphView } from './view-store';
import { TrafficLayer } from './TrafficLayer';
import { GraphSummaryNote } from './GraphSummaryNote';
import { summaryShape, withPodSummaries } from './pod-summary-model';
import type { KubeState } from '../store/store';

/** The node names the large-cluster path's summary counts (a string: stable while only counts change). */
const selectSummaryShape = (s: KubeState) => summaryShape(s.podSummary);

const onNodeClick: NodeMouseHandler<FlowNode> = (_e, node) => {
  if (node.type === 'pod' || node.type === 'workload' || node.type === 'object') select(node.data.key);
  else if (node.type === 'podGroup') toggleGroup(node.data.id);
  else if (node.type === 'nodeGroup' && node.data.key) select(node.data.key);
};

const proOptions = { hideAttribution: true };

/** Card sizes from the browser's text widths and the object cards' current summaries. */
const sizing: Sizing = {
  measure: measureText,
  cardText: (key) => {
    const stored = kubeStore.getState().objects.get(key);
    return stored ? summarize(stored, selectServiceEndpoints(key)(kubeStore.getState())) : undefined;
  },
};
const selectView = (v: GraphView) => v;
/** The lowest zoom the automatic fit uses (placement.ts wraps long rows to fit the pane at it). */
export { READABLE_ZOOM };
const MAX_FIT_ZOOM = 1.3;
/**
 * The automatic fit's lowest zoom: below {@link READABLE_ZOOM} only when a graph does not fit
 * otherwise (the peekcart example in a 1280×800 window needs ~0.65), so every card stays in the
 * pane; a graph bigger still is panned.
 */
export const MIN_FIT_ZOOM = 0.55;
const FIT_PAD = 10;
/** Width the zoom controls take at the pane's right edge (React Flow's Controls, 15 px margins). */
const CONTROLS_W = 42;
/** Remembers the previous layout, so unchanged nodes keep their identity. */
function createRelayout() {
  let prev: Layout | undefined;
  return (model: GraphModel, positions: Positions): Layout => (prev = layoutGraph(model, positions, prev));
}

/** The pane's size rounded to 40 px steps (so a small resize does not move the cards). */
const selectPaneKey = (s: ReactFlowState) => `${Math.round(s.width / 40) * 40}x${Math.round(s.height / 40) * 40}`;

/**
 * The viewport that shows a `w`×`h` graph in a `pane`: fitted and centred, but not below
 * {@link MIN_FIT_ZOOM}; a graph bigger than that starts at its top left (the rest is panned to).
 */
export function fitViewport(w: number, h: number, pane: Pane): { x: number; y: number; zoom: number } {
  // the zoom controls stand at the bottom right: the graph is fitted beside them
  const room = pane.width - 2 * FIT_PAD - CONTROLS_W;
  const zoom = Math.min(MAX_FIT_ZOOM, Math.max(MIN_FIT_ZOOM, Math.min(room / w, (pane.height - 2 * FIT_PAD) / h)));
  const x = w * zoom <= room ? (pane.width - CONTROLS_W - w * zoom) / 2 : FIT_PAD;
  const y = h * zoom <= pane.height - 2 * FIT_PAD ? (pane.height - h * zoom) / 2 : FIT_PAD;
  return { x, y, zoom };
}

/** The zoom controls' fit: the whole graph, however small (the automatic fit keeps text readable). */
const fitViewOptions: FitViewOptions = {
  padding: { top: '10px', bottom: '10px', left: '10px', right: `${CONTROLS_W + 10}px` },
  duration: 200,
};

function Graph() {
  const { t } = useTranslation();
  const ariaLabels = useMemo(
    () => ({
      'controls.ariaLabel': t('graph.controls'),
      'controls.zoomIn.ariaLabel': t('graph.zoomIn'),
      'controls.zoomOut.ariaLabel': t('graph.zoomOut'),
      'controls.fitView.ariaLabel': t('graph.fitView'),
    }),
    [t],
  );
  const topology = useKubeStore(selectTopology);
  const view = useGraphView(selectView);
  const paneKey = useStore(selectPaneKey);
  const pane = useMemo<Pane>(() => {
    const [width, height] = paneKey.split('x').map(Number);
    return { width, height };
  }, [paneKey]);
  const summaryNodes = useKubeStore(selectSummaryShape);
  const userNames = useControllers(selectRunningNames);
  const model = useMemo(
    () =>
      withPodSummaries(
        buildModel(topology, view, { ...sizing, userControllers: userNames ? userNames.split(',') : [] }),
        summaryNodes,
        measureText,
      ),
    [topology, view, summaryNodes, userNames],
  );
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
  // the automatic fit follows the graph until the person pans or zooms; the fit button resumes it
  const userMoved = useRef(false);
  useEffect(() => {
    if (paneW <= 0 || paneH <= 0 || userMoved.current) return;
    const [w, h] = size.split(':').map(Number);
    if (w <= 0 || h <= 0) return;
    const id = requestAnimationFrame(() => void setViewport(fitViewport(w, h, { width: paneW, height: paneH }), { duration: 200 }));
    return () => cancelAnimationFrame(id);
  }, [size, paneW, paneH, setViewport]);
  const onMoveStart = useCallback((event: MouseEvent | TouchEvent | null) => {
    if (event) userMoved.current = true;
  }, []);
  const onZoomed = useCallback(() => {
    userMoved.current = true;
  }, []);
  // the fit button shows the whole graph (however small); later changes are fitted again
  const onFitView = useCallback(() => {
    userMoved.current = false;
  }, []);

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
      onMoveStart={onMoveStart}
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
      <Controls
        showInteractive={false}
        position="bottom-right"
        fitViewOptions={fitViewOptions}
        onFitView={onFitView}
        onZoomIn={onZoomed}
        onZoomOut={onZoomed}
      />
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
        <button
          key={l}
          type="button"
          className="mini"
          data-testid="layer-toggle"
          data-layer={l}
          aria-pressed={layers[l]}
          title={t('graph.layerTitle', { layer: t(`graph.${l}`) })}
          onClick={() => toggleLayer(l)}
        >
          {t(`graph.${l}`)}
        </button>
      ))}
    </span>
  );
}

/**
 * The HA control-plane switch (`[data-testid=ha-toggle][aria-pressed]`): starts over with 3
 * control-plane nodes (or back to one); pressed while the cluster has more than one.
 */
function HAToggle() {
  const { t } = useTranslation();
  const ha = useKubeStore((s) => s.topology.nodes.filter((n) => n.controlPlane).length > 1);
  const label = t(ha ? 'panes.haOffLabel' : 'panes.haOnLabel');
  return (
    <button
      type="button"
      className="mini"
      data-testid="ha-toggle"
      aria-pressed={ha}
      aria-label={label}
      title={label}
      onClick={() => void cluster.setControlPlaneReplicas(ha ? 1 : 3)}
    >
      {t('panes.ha')}
    </button>
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
          <i className="tone-ok" />
          Running <i className="tone-progress" />
          Pending/Creating <i className="tone-gone" />
          Terminating <i className="tone-error" />
          Error
        </span>
        <button
          type="button"
          className="mini"
          data-testid="add-node"
          aria-label={t('panes.addNodeLabel')}
          title={t('panes.addNodeLabel')}
          onClick={() => void cluster.addNode()}
        >
          {t('panes.addNode')}
        </button>
        <HAToggle />
      </header>
      <div className="graph-host">
        <ReactFlowProvider>
          <Graph />
        </ReactFlowProvider>
        <GraphSummaryNote />
      </div>
    </section>
  );
}

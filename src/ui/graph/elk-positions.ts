/**
 * The graph's block positions, React side: placement.ts answers synchronously (rows, order, y),
 * elkjs answers later from its Web Worker (x). Until elk has answered for the current structure
 * ({@link ElkInput.signature}), the blocks stand where they stood, newcomers near where elk will
 * put them (elk-layout.ts carryOver); when elk answers for the still-current structure, the
 * cards move there (ClusterGraph adds a short CSS transition while `settling`). A model change
 * elk does not see (a Pod more in a node, a status) needs no layout: elk's answers are cached
 * by signature.
 */
import { useEffect, useMemo, useState } from 'react';
import type { GraphModel } from './model';
import { placeBlocks, type Pane, type Positions } from './placement';
import { applyElk, carryOver, toElkInput, type ElkInput } from './elk-layout';
import { createElkRunner, type ElkLayoutFn } from './elk-runner';
import { layoutInElkWorker } from './elk-worker';

/** How many elk answers are kept (layer toggles flip between a few structures). */
const CACHE_SIZE = 16;
/** How long the cards glide to new positions, ms (app.css `.layout-settling`). */
export const SETTLE_MS = 250;

export interface ElkPositions {
  positions: Positions;
  /** 'elk': elk's answer for this structure; 'provisional': elk has not answered yet (or failed). */
  source: 'elk' | 'provisional';
  /** elk layouts completed since the graph mounted. */
  layouts: number;
  /** true for {@link SETTLE_MS} after the blocks moved to a new structure or to elk's answer. */
  settling: boolean;
}

/** elk's answers (left x by block id) by signature, the latest {@link CACHE_SIZE}. */
export type ElkAnswers = ReadonlyMap<string, ReadonlyMap<string, number>>;

/**
 * The runner in front of elk, its answers by signature, and the x last shown (where a new
 * structure's blocks start from). `onAnswer` gets the answers after each completed layout
 * (a new map each time) and how many layouts completed.
 */
export function createElkLayouts(layout: ElkLayoutFn, onAnswer: (answers: ElkAnswers, layouts: number) => void) {
  let answers: ElkAnswers = new Map();
  let layouts = 0;
  let shown: ReadonlyMap<string, number> | undefined;
  const runner = createElkRunner(layout, (signature, xs) => {
    layouts++;
    if (xs) {
      const next = new Map(answers);
      next.delete(signature);
      next.set(signature, xs);
      if (next.size > CACHE_SIZE) next.delete(next.keys().next().value ?? '');
      answers = next;
    }
    onAnswer(answers, layouts);
  });
  return {
    /** Requests `input`'s layout unless elk already answered it. */
    want(input: ElkInput): void {
      if (!answers.has(input.signature)) runner.request(input);
    },
    /** Positions of `model` (placed by placement.ts as `placed`): at elk's x `xs` when known. */
    positions(
      model: GraphModel,
      placed: Positions,
      xs: ReadonlyMap<string, number> | undefined,
    ): { positions: Positions; source: 'elk' | 'provisional' } {
      const used = xs ?? carryOver(model, placed, shown);
      shown = used;
      return { positions: applyElk(model, placed, used), source: xs ? 'elk' : 'provisional' };
    },
  };
}

/** Positions of `model`'s blocks in `pane`, elk's when it has answered. */
export function useElkPositions(model: GraphModel, pane: Pane): ElkPositions {
  const [{ answers, layouts }, setAnswers] = useState<{ answers: ElkAnswers; layouts: number }>({ answers: new Map(), layouts: 0 });
  const [elk] = useState(() => createElkLayouts(layoutInElkWorker, (a, n) => setAnswers({ answers: a, layouts: n })));
  const placed = useMemo(() => placeBlocks(model, pane), [model, pane]);
  const input = useMemo(() => toElkInput(model, placed), [model, placed]);
  useEffect(() => elk.want(input), [elk, input]);
  const xs = answers.get(input.signature);
  const result = useMemo(() => elk.positions(model, placed, xs), [elk, model, placed, xs]);

  // glide while the blocks move to a new structure or to elk's answer
  const step = `${input.signature}\n${result.source}`;
  const [settled, setSettled] = useState(step);
  const settling = settled !== step;
  useEffect(() => {
    if (!settling) return;
    const id = setTimeout(() => setSettled(step), SETTLE_MS);
    return () => clearTimeout(id);
  }, [settling, step]);

  return { positions: result.positions, source: result.source, layouts, settling };
}

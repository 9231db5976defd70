/**
 * ImageLocality: prefers nodes that already have the pod's images, scaled by how many nodes
 * have them (spread), between 23 MB and 1000 MB per container (weight 1).
 *
 * Mirrors pkg/scheduler/framework/plugins/imagelocality/image_locality.go.
 */
import { MAX_NODE_SCORE } from '../framework';
import { normalizedImageName, type NodeInfo, type PodInfo } from '../node-info';
import type { CycleState, ScorePlugin } from '../types';
import { StringIntern } from '../../util/intern';

const MB = 1024 * 1024;
/** The pods' normalized image names, pooled (one string per distinct name). */
const IMAGE_NAMES = new StringIntern(1024);
/** minThreshold: 23 MB. */
export const MIN_THRESHOLD = 23 * MB;
/** maxContainerThreshold: 1000 MB. */
export const MAX_CONTAINER_THRESHOLD = 1000 * MB;

/** The ImageLocality score plugin. */
export class ImageLocality implements ScorePlugin {
  readonly name = 'ImageLocality';
  constructor(
    private readonly numNodes: () => number,
    private readonly imageNumNodes: (image: string) => number,
  ) {}

  private names = new WeakMap<object, string[]>();

  score(_s: CycleState, pod: PodInfo, ni: NodeInfo): number {
    let images = this.names.get(pod.pod);
    if (!images) {
      const spec = pod.pod.spec ?? {};
      // interned: NodeInfo.imageSize compares the name it last answered by identity first
      images = [...(spec.initContainers ?? []), ...(spec.containers ?? [])].map((c: { image?: string }) =>
        IMAGE_NAMES.intern(normalizedImageName(c.image ?? '')),
      );
      this.names.set(pod.pod, images);
    }
    if (ni.numImages === 0) return calculatePriority(0, images.length);
    const total = this.numNodes();
    let sum = 0;
    for (const name of images) {
      const size = ni.imageSize(name);
      if (size !== undefined && total > 0) sum += Math.trunc((size * this.imageNumNodes(name)) / total);
    }
    return calculatePriority(sum, images.length);
  }
}

/** calculatePriority: maps the summed image sizes to 0..100. */
export function calculatePriority(sumScores: number, numContainers: number): number {
  const maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
  if (sumScores < MIN_THRESHOLD) sumScores = MIN_THRESHOLD;
  else if (sumScores > maxThreshold) sumScores = maxThreshold;
  if (maxThreshold === MIN_THRESHOLD) return 0;
  return Math.trunc((MAX_NODE_SCORE * (sumScores - MIN_THRESHOLD)) / (maxThreshold - MIN_THRESHOLD));
}

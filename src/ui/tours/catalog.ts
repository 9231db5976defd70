/**
 * The tour files (src/scenarios/tours/*.tour.yaml), bundled as text at build time: nothing
 * loads from the network, and the worker parses them (the main thread never parses YAML).
 * A tour's id is its file name without the order prefix and `.tour.yaml`
 * (`3-self-healing.tour.yaml` → `self-healing`).
 */
const files = import.meta.glob('../../scenarios/tours/*.tour.yaml', { query: '?raw', import: 'default', eager: true }) as Record<
  string,
  string
>;

export interface TourFile {
  id: string;
  text: string;
}

/** Tour id from its path. */
export function tourId(path: string): string {
  return path
    .replace(/^.*\//, '')
    .replace(/\.tour\.yaml$/, '')
    .replace(/^\d+-/, '');
}

/** Every tour, in file order. */
export const TOURS: TourFile[] = Object.keys(files)
  .sort()
  .map((p) => ({ id: tourId(p), text: files[p] }));

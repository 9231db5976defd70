/** Small inline icons (no icon font: nothing loads from the network, and emoji fonts may be missing). */
const PATHS = {
  play: 'M4 2.5v11l9-5.5z',
  pause: 'M4 2.5h3v11H4zM9 2.5h3v11H9z',
  step: 'M3 2.5v11l7.5-5.5zM11 2.5h2.5v11H11z',
  power: 'M7.25 1.5h1.5v6h-1.5zM4.4 3.6l1.06 1.06A4.25 4.25 0 1 0 10.54 4.66L11.6 3.6A5.75 5.75 0 1 1 4.4 3.6z',
  clock: 'M8 1.5a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13zm0 1.5a5 5 0 1 1 0 10A5 5 0 0 1 8 3zm-.75 1.5v4.1l3 1.8.75-1.25-2.25-1.35V4.5z',
  reset: 'M8 2.5a5.5 5.5 0 1 1-5.2 3.7l1.4.5A4 4 0 1 0 8 4v2L4.5 3.25 8 .5z',
} as const;

export function Icon({ name }: { name: keyof typeof PATHS }) {
  return (
    <svg className="icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
      <path d={PATHS[name]} fill="currentColor" fillRule="evenodd" />
    </svg>
  );
}

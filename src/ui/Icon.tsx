/** Small inline icons (no icon font: nothing loads from the network, and emoji fonts may be missing). */
const PATHS = {
  play: 'M4 2.5v11l9-5.5z',
  pause: 'M4 2.5h3v11H4zM9 2.5h3v11H9z',
  step: 'M3 2.5v11l7.5-5.5zM11 2.5h2.5v11H11z',
  power: 'M7.25 1.5h1.5v6h-1.5zM4.4 3.6l1.06 1.06A4.25 4.25 0 1 0 10.54 4.66L11.6 3.6A5.75 5.75 0 1 1 4.4 3.6z',
  clock: 'M8 1.5a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13zm0 1.5a5 5 0 1 1 0 10A5 5 0 0 1 8 3zm-.75 1.5v4.1l3 1.8.75-1.25-2.25-1.35V4.5z',
  reset: 'M8 2.5a5.5 5.5 0 1 1-5.2 3.7l1.4.5A4 4 0 1 0 8 4v2L4.5 3.25 8 .5z',
  moon: 'M10.5 1.8A6.5 6.5 0 1 0 14.2 10 5.2 5.2 0 0 1 10.5 1.8z',
  remove: 'M3.4 2.3 8 6.9l4.6-4.6 1.1 1.1L9.1 8l4.6 4.6-1.1 1.1L8 9.1l-4.6 4.6-1.1-1.1L6.9 8 2.3 3.4z',
  sun: 'M8 5a3 3 0 1 0 0 6a3 3 0 1 0 0-6zM7.25 0h1.5v3h-1.5zM7.25 13h1.5v3h-1.5zM0 7.25h3v1.5H0zM13 7.25h3v1.5h-3zM2.1 3.16l1.06-1.06 2.12 2.12-1.06 1.06zM10.72 11.78l1.06-1.06 2.12 2.12-1.06 1.06zM2.1 12.84l2.12-2.12 1.06 1.06-2.12 2.12zM10.72 4.22l2.12-2.12 1.06 1.06-2.12 2.12z',
} as const;

export function Icon({ name }: { name: keyof typeof PATHS }) {
  return (
    <svg className="icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
      <path d={PATHS[name]} fill="currentColor" fillRule="evenodd" />
    </svg>
  );
}

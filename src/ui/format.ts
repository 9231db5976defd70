/** Small pure formatters shared by the panels. */

/** Simulated time since cluster start as HH:MM:SS. */
export function formatSimTime(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  return `${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:${String(ss).padStart(2, '0')}`;
}

/** A countdown as m:ss, or h:mm:ss from one hour on (rounded up, never negative). */
export function formatCountdown(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const ss = String(s % 60).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)}:${ss}`;
  return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${ss}`;
}

/**
 * A duration as kubectl prints AGE and LAST SEEN (apimachinery's duration.HumanDuration):
 * 45s, 5m12s, 42m, 3h20m, 30h, 2d4h, 40d, 2y30d.
 */
export function formatAge(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 ? `${minutes}m${seconds % 60}s` : `${minutes}m`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 ? `${hours}h${minutes % 60}m` : `${hours}h`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return hours % 24 ? `${days}d${hours % 24}h` : `${days}d`;
  if (days < 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (days < 365 * 8) return days % 365 ? `${years}y${days % 365}d` : `${years}y`;
  return `${years}y`;
}

/** Colour family of a `kubectl get` STATUS. */
export function statusTone(status: string): 'ok' | 'progress' | 'error' | 'gone' | 'done' | 'unknown' {
  if (status === 'Running' || status === 'Ready') return 'ok';
  if (status === 'Completed' || status === 'Succeeded') return 'done';
  if (status === 'Terminating' || status.includes('SchedulingDisabled')) return 'gone';
  if (status === 'Pending' || status === 'ContainerCreating' || status === 'PodInitializing' || status.startsWith('Init:'))
    return 'progress';
  if (status === 'Unknown' || status === '') return 'unknown';
  return 'error';
}

/**
 * A name that fits a card: keeps the start (the owner's name) and the end (the Pod's own
 * suffix), e.g. "peekcart-57f6…-47k97".
 */
export function shortName(name: string, max = 20): string {
  if (name.length <= max) return name;
  const tail = name.slice(name.lastIndexOf('-'));
  const keepTail = tail.length < max / 2 ? tail : name.slice(-Math.floor(max / 2));
  return `${name.slice(0, max - keepTail.length - 1)}…${keepTail}`;
}

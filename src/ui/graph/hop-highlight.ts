/**
 * The relay hop picked in the sequence diagram (`selectedHop`), as the graph shows it: its two
 * participants' cards and the link between them. Selectors return strings, so a card re-renders
 * only when the highlight itself changes.
 */
import type { KubeState } from '../store/store';
import type { RelayHop } from '../store/types';
import { cardOfParticipant, linkOfHop } from './participants';

/** The hop with `seq` (hops are in seq order: binary search), or undefined once it fell off the ring. */
export function findHop(hops: readonly RelayHop[], seq: number): RelayHop | undefined {
  let lo = 0;
  let hi = hops.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = hops[mid].seq;
    if (s === seq) return hops[mid];
    if (s < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** "cardA|cardB|link" of the selected hop ("" when none): the cards of its from/to and the link it travels. */
export function hopHighlight(s: Pick<KubeState, 'hops' | 'selectedHop'>): string {
  if (s.selectedHop === null) return '';
  const h = findHop(s.hops, s.selectedHop);
  if (!h) return '';
  return `${cardOfParticipant(h.from) ?? ''}|${cardOfParticipant(h.to) ?? ''}|${linkOfHop(h.from, h.to)?.link ?? ''}`;
}

/** Whether `id` (a card id or a link id) is part of the highlight string. */
export function isHighlighted(highlight: string, id: string): boolean {
  return highlight !== '' && highlight.split('|').includes(id);
}

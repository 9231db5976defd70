/** Whether the hop selected in the sequence diagram touches this card (or link). */
import { useKubeStore } from '../../store/store';
import { hopHighlight, isHighlighted } from '../hop-highlight';

export function useHopHighlight(id: string): boolean {
  const h = useKubeStore(hopHighlight);
  return isHighlighted(h, id);
}

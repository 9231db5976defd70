/** A glow that replays whenever a relay hop touches the card's link. */
import { useKubeStore } from '../../store/store';
import { selectPulse } from '../../store/selectors';
import { linkId } from '../participants';

export function Flash({ card }: { card: string }) {
  const pulse = useKubeStore(selectPulse(linkId(card)));
  return pulse ? <span key={pulse.seq} className="flash" aria-hidden /> : null;
}

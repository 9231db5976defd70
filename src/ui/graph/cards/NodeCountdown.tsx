/** The nearest pending deadline about a node (grace period, eviction), counting down. */
import { useKubeStore } from '../../store/store';
import { selectNodeDeadline } from '../../store/selectors';

export function NodeCountdown({ node }: { node: string }) {
  const text = useKubeStore(selectNodeDeadline(node));
  return text ? (
    <span className="node-countdown" data-testid="node-countdown" title={text}>
      {text}
    </span>
  ) : null;
}

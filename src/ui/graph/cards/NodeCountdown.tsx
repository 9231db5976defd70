/**
 * The nearest pending deadline about a node (grace period, eviction), counting down. Shown time
 * first ("4:01 eviction") so a narrow node card cuts the words, never the time; the title
 * keeps the selector's whole text ("eviction in 4:01").
 */
import { useKubeStore } from '../../store/store';
import { selectNodeDeadline } from '../../store/selectors';

/** "what in m:ss" → ["m:ss", "what"]; a text without " in " is all "what". */
export function splitDeadline(text: string): [time: string, what: string] {
  const m = /^(.*) in (\S+)$/.exec(text);
  return m ? [m[2], m[1]] : ['', text];
}

export function NodeCountdown({ node }: { node: string }) {
  const text = useKubeStore(selectNodeDeadline(node));
  if (!text) return null;
  const [time, what] = splitDeadline(text);
  return (
    <span className="node-countdown" data-testid="node-countdown" title={text}>
      {time && <span className="countdown-time">{time}</span>} {what}
    </span>
  );
}

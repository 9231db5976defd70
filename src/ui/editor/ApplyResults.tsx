/** kubectl's answer to the last apply: one line per object, errors verbatim (red). */
import { memo } from 'react';
import { useKubeStore } from '../store/store';
import { selectApplyResults } from '../store/selectors';
import { applyLines } from './apply-lines';

export const ApplyResults = memo(function ApplyResults() {
  const results = useKubeStore(selectApplyResults);
  return (
    <div className="apply-results" aria-live="polite">
      {results === null ? (
        <div className="muted">$ kubectl apply -f - &lt; manifest.yaml</div>
      ) : results.length === 0 ? (
        <div className="muted" data-testid="apply-result">
          error: no objects passed to apply
        </div>
      ) : (
        // successes (with their warnings) first, errors after them, as kubectl prints them
        applyLines(results).map((l, j) => (
          <div
            key={`${l.result}-${j}`}
            data-testid={l.tone === 'warn' ? 'apply-warning' : 'apply-result'}
            data-action={results[l.result].action}
            className={`apply-line ${l.tone}`}
          >
            {l.text}
          </div>
        ))
      )}
    </div>
  );
});

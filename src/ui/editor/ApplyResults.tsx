/** kubectl's answer to the last apply: one line per object, errors verbatim (red). */
import { memo } from 'react';
import { useKubeStore } from '../store/store';
import { selectApplyResults } from '../store/selectors';
import type { ApplyResult } from '../store/types';

function lines(r: ApplyResult): { text: string; tone: 'ok' | 'warn' | 'error' }[] {
  const out: { text: string; tone: 'ok' | 'warn' | 'error' }[] = [];
  // kustomize's deprecation warnings (apply -k) come as `# Warning: …`, printed as they are
  for (const w of r.warnings ?? []) out.push({ text: /^(# )?Warning:/.test(w) ? w : `Warning: ${w}`, tone: 'warn' });
  if (r.action === 'error') out.push({ text: r.message ?? `${r.object} error`, tone: 'error' });
  else out.push({ text: `${r.object} ${r.action}`, tone: 'ok' });
  return out;
}

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
        results.flatMap((r, i) =>
          lines(r).map((l, j) => (
            <div key={`${i}-${j}`} data-testid={l.tone === 'warn' ? 'apply-warning' : 'apply-result'} data-action={r.action} className={`apply-line ${l.tone}`}>
              {l.text}
            </div>
          )),
        )
      )}
    </div>
  );
});

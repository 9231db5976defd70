/**
 * The lines of the editor's Apply results, in the order kubectl prints them
 * (staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go): each object's warnings and its success
 * line as its response arrives, and every error collected and printed after all of them
 * (cmdutil.CheckErr of the aggregate).
 */
import type { ApplyResult } from '../store/types';

/** One printed line: text and tone (ok = stdout, warn/error = stderr). */
export interface ApplyLine {
  text: string;
  tone: 'ok' | 'warn' | 'error';
  /** Index of the result the line belongs to. */
  result: number;
}

/** Lines of one result: its warnings, then its success (or, for errors, nothing here). */
function warningLines(r: ApplyResult, i: number): ApplyLine[] {
  // kustomize's deprecation warnings (apply -k) come as `# Warning: …`, printed as they are
  return (r.warnings ?? []).map((w) => ({ text: /^(# )?Warning:/.test(w) ? w : `Warning: ${w}`, tone: 'warn' as const, result: i }));
}

/** Every line of an apply's results: successes (with their warnings) first, errors after. */
export function applyLines(results: ApplyResult[]): ApplyLine[] {
  const out: ApplyLine[] = [];
  const errors: ApplyLine[] = [];
  results.forEach((r, i) => {
    out.push(...warningLines(r, i));
    if (r.action === 'error') errors.push({ text: r.message ?? `${r.object} error`, tone: 'error', result: i });
    else out.push({ text: `${r.object} ${r.action}`, tone: 'ok', result: i });
  });
  return [...out, ...errors];
}

/**
 * The kubectl bar: one command line (Enter runs it in the worker, ↑/↓ walk the history) and
 * what kubectl printed — stdout, then stderr in red — exactly as returned. While the timeline
 * is scrubbed back (`replayAt` set) a note says kubectl still runs against the live cluster.
 * `get … -w` keeps appending the rows the watch prints (watch-lines.ts) until Ctrl+C or Esc in
 * the input, or the next command.
 */
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import type { KubeState } from '../store/store';
import { cluster } from '../cluster-client';
import { emptyHistory, historyDown, historyUp, pushHistory, type History } from './history';
import { stopWatch, useWatchSession, useWatchTail } from './watch-lines';
import { ActingAsSwitcher } from './ActingAsSwitcher';

const selectLast = (s: KubeState) => s.kubectlLast;
const selectRunning = (s: KubeState) => s.kubectlRunning;
const selectReplaying = (s: KubeState) => s.replayAt !== null;

/** History lives for the page (the bar unmounts when its tab is hidden). */
let sessionHistory: History = emptyHistory();

const Output = memo(function Output() {
  const last = useKubeStore(selectLast);
  const running = useKubeStore(selectRunning);
  const replaying = useKubeStore(selectReplaying);
  const { t } = useTranslation();
  const watchId = (last?.result as { watchId?: number } | undefined)?.watchId;
  useWatchSession(watchId);
  const tail = useWatchTail();
  const watching = watchId !== undefined && tail.id === watchId;
  return (
    <div className="kubectl-result">
      {replaying && (
        <div className="kubectl-live-note" data-testid="kubectl-live-note" role="note">
          {t('kubectl.liveNote')}
        </div>
      )}
      {last && (
        <div className="kubectl-echo muted">
          $ kubectl {last.line.replace(/^\s*kubectl\s+/, '')}
          {last.result.exitCode !== 0 && <span className="exit"> (exit {last.result.exitCode})</span>}
        </div>
      )}
      <pre
        className="kubectl-output"
        data-testid="kubectl-output"
        data-exit-code={last?.result.exitCode ?? ''}
        data-watching={watching && tail.open ? 'true' : undefined}
        aria-live="polite"
        aria-busy={running}
      >
        {last?.result.output}
        {watching && tail.lines}
        {last?.result.error && <span className="stderr">{last.result.error}</span>}
      </pre>
    </div>
  );
});

export function KubectlBar() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const run = () => {
    const line = text.trim();
    if (!line) return;
    sessionHistory = pushHistory(sessionHistory, line);
    setText('');
    void cluster.kubectl(line);
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (
      e.key === 'Escape' ||
      (e.key === 'c' && e.ctrlKey && !e.currentTarget.value.slice(e.currentTarget.selectionStart ?? 0, e.currentTarget.selectionEnd ?? 0))
    ) {
      // ^C ends a running `get -w` (unless text is selected: then it copies)
      stopWatch();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      run();
    } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      e.preventDefault();
      const r = e.key === 'ArrowUp' ? historyUp(sessionHistory, text) : historyDown(sessionHistory, text);
      sessionHistory = r.history;
      setText(r.text);
    }
  };
  return (
    <div className="kubectl-bar" role="tabpanel">
      <ActingAsSwitcher />
      <form
        className="kubectl-prompt"
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <label htmlFor="kubectl-input" className="prompt">
          $ kubectl
        </label>
        <input
          id="kubectl-input"
          data-testid="kubectl-input"
          aria-label={t('kubectl.inputLabel')}
          placeholder={t('kubectl.placeholder')}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
          }}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="mini" aria-label={t('kubectl.run')}>
          {t('kubectl.run')}
        </button>
      </form>
      <div className="scroll">
        <Output />
      </div>
    </div>
  );
}

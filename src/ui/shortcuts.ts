/**
 * Keyboard shortcuts: space plays/pauses, `.` steps, `?` toggles the help, `t` the tour list,
 * `n` runs a tour's next steps, Escape closes the tour list, the help or the inspector. Ignored while typing (inputs, selects, Monaco, contenteditable).
 */
import { kubeStore } from './store/store';
import { select, setHelpOpen } from './store/actions';
import { cluster } from './cluster-client';
import { tourStore } from './tours/tour-store';
import { nextTourStep, openTourList } from './tours/tour-actions';

function typing(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  if (t.isContentEditable || t.closest('.monaco-editor')) return true;
  const tag = t.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !['checkbox', 'radio', 'button', 'range'].includes((t as HTMLInputElement).type);
  return false;
}

export function onShortcut(e: KeyboardEvent): void {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  if (typing(e.target)) return;
  const s = kubeStore.getState();
  switch (e.key) {
    case ' ':
      // a focused button or checkbox would take the space too: the shortcut wins
      e.preventDefault();
      void (s.running ? cluster.pause() : cluster.play());
      break;
    case '.':
      e.preventDefault();
      void cluster.step();
      break;
    case '?':
      e.preventDefault();
      setHelpOpen(!s.helpOpen);
      break;
    case 't':
      e.preventDefault();
      openTourList(!tourStore.getState().listOpen);
      break;
    case 'n':
      if (!tourStore.getState().tour) break;
      e.preventDefault();
      void nextTourStep();
      break;
    case 'Escape':
      if (tourStore.getState().listOpen) openTourList(false);
      else if (s.helpOpen) setHelpOpen(false);
      else if (s.selected) select(null);
      break;
  }
}

export function installShortcuts(): () => void {
  window.addEventListener('keydown', onShortcut);
  return () => window.removeEventListener('keydown', onShortcut);
}

/**
 * Light and dark themes: `data-theme` on <html> switches the CSS variables (app.css). The
 * first visit follows prefers-color-scheme; a toggle is remembered in localStorage. Monaco
 * and Mermaid keep their light themes and are colour-inverted by CSS in the dark theme (a
 * second Monaco import from here would bypass the editor's own setup).
 */
import { kubeStore } from './store/store';
import { setTheme } from './store/actions';
import type { Theme } from './store/slices/console';

const STORAGE_KEY = 'kube-relay.theme';

function initialTheme(): Theme {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    if (v === 'light' || v === 'dark') return v;
  } catch {
    // storage unavailable
  }
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function apply(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  document.documentElement.style.colorScheme = theme;
}

/** Applies the initial theme and keeps <html> in step with the store. */
export function installTheme(): void {
  setTheme(initialTheme());
  apply(kubeStore.getState().theme);
  kubeStore.subscribe((s, p) => {
    if (s.theme !== p.theme) apply(s.theme);
  });
}

export function toggleTheme(): void {
  const next: Theme = kubeStore.getState().theme === 'dark' ? 'light' : 'dark';
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // not remembered
  }
  setTheme(next);
}

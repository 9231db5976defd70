/**
 * Which engine the page runs on: the in-browser worker (default) or an API server it attaches
 * to. Chosen with the toolbar's engine select (EngineControl.tsx), kept in localStorage, and
 * overridable per page load with `?attach=BASE` (`?attach=/k8s`: through the app's own proxy,
 * vite.config.ts, which adds `npm run apiserver`'s token; `?attach=http://…`: a server that
 * sends CORS headers for this origin and asks for no token — the page holds none; `?attach=off`:
 * the worker). Switching reloads
 * the page, so the worker and the attach client never run side by side.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { AttachInfo } from './attach-client';

/** The app's own proxy to KUBE_RELAY_API (vite.config.ts `/k8s`). */
export const PROXY_BASE = '/k8s';

const STORAGE_KEY = 'kube-relay.attach';

/** The API base to attach to, or null for the in-browser engine. */
export function chosenAttachBase(search: string = globalThis.location?.search ?? ''): string | null {
  const q = new URLSearchParams(search).get('attach');
  if (q !== null) return q === '' || q === 'off' ? null : q.replace(/\/+$/, '');
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) || null;
  } catch {
    return null;
  }
}

/** Saves the choice and reloads the page without an `attach` parameter. */
export function switchEngine(base: string | null): void {
  try {
    if (base) localStorage.setItem(STORAGE_KEY, base);
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // private mode: the URL parameter still carries it
  }
  const url = new URL(location.href);
  url.searchParams.set('attach', base ?? 'off');
  location.assign(url.toString());
}

/** What the badge shows. */
export interface EngineState {
  /** null: the in-browser engine. */
  base: string | null;
  info: AttachInfo | null;
}

export const engineStore = createStore<EngineState>()(() => ({ base: chosenAttachBase(), info: null }));

export function useEngine<T>(selector: (s: EngineState) => T): T {
  return useStore(engineStore, selector);
}

/**
 * The badge text: "in-browser engine", "kube-relay apiserver http://127.0.0.1:6443",
 * "cluster via kubectl proxy http://127.0.0.1:8001" (a proxied server without machines),
 * "cluster http://…" (direct), or the base while discovery runs.
 */
export function engineLabel(s: EngineState): string {
  if (!s.base) return 'in-browser engine';
  if (!s.info) return `attaching to ${s.base}…`;
  if (s.info.flavor === 'kube-relay') return `kube-relay apiserver ${s.info.upstream}`;
  return s.base.startsWith('/') ? `cluster via kubectl proxy ${s.info.upstream}` : `cluster ${s.info.upstream}`;
}

/**
 * The engine's target, without its status: "in-browser engine" or the API base it attaches
 * to: the upstream discovery reported ("http://127.0.0.1:6443" behind `/k8s`), else the base
 * as chosen ("http://127.0.0.1:1" while or after failing). Worker-only refusals name this.
 */
export function engineTarget(s: EngineState): string {
  if (!s.base) return 'in-browser engine';
  return s.info?.upstream ?? s.base;
}

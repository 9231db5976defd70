/**
 * The editor's files (tabs) and their text, reachable without importing Monaco. Before the
 * lazy editor mounts, texts live here; once mounted, each tab is a Monaco model and this
 * module forwards to it. Tab names and order live in a small vanilla zustand store that the
 * tab bar renders and persistence saves.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { EditorMarker } from '../../worker/protocol';
import { SEED_MANIFEST } from './seed-manifest';

export interface EditorTab {
  id: string;
  /** File name shown on the tab (`manifest.yaml`). */
  name: string;
}

export interface TabsState {
  tabs: EditorTab[];
  active: string;
  /** Bumps on every text change (persistence listens). */
  edits: number;
}

export interface TabSnapshot extends EditorTab {
  text: string;
}

/** What the mounted editor offers. */
export interface EditorHandle {
  getText(id: string): string | undefined;
  setText(id: string, text: string): void;
  /** Drops a tab's model. */
  dispose(id: string): void;
  markers(): { severity: number; message: string; line: number; owner: string }[];
  setApiMarkers(id: string, markers: EditorMarker[]): void;
  /** The JavaScript a controller tab's source compiles to (TypeScript's emit; JavaScript as is). */
  compile?(id: string): Promise<string>;
}

/** A controller tab (docs/user-controllers.md): `NAME.controller.ts` or `NAME.controller.js`. */
export function isControllerTab(name: string): boolean {
  return /\.controller\.(ts|js)$/.test(name);
}

/** The controller a tab starts: its file name's stem as a DNS-1123 label plus `-controller` (`website.controller.ts` → `website-controller`). */
export function controllerNameOf(tabName: string): string {
  const stem = (tabName.split('/').pop() ?? '')
    .replace(/\.controller\.(ts|js)$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 52);
  return `${stem || 'my'}-controller`;
}

/** The JavaScript of a controller tab (the mounted editor compiles TypeScript; before it mounts, the text as is). */
export function compileTab(id: string): Promise<string> {
  return handle?.compile ? handle.compile(id) : Promise.resolve(getTabText(id));
}

let counter = 1;
const newId = () => `t${Date.now().toString(36)}${(counter++).toString(36)}`;

const first: EditorTab = { id: 't0', name: 'manifest.yaml' };
const texts = new Map<string, string>([[first.id, SEED_MANIFEST]]);
let handle: EditorHandle | null = null;

export const tabsStore = createStore<TabsState>()(() => ({ tabs: [first], active: first.id, edits: 0 }));

export function useTabs<T>(selector: (s: TabsState) => T): T {
  return useStore(tabsStore, selector);
}

export const activeTabId = (): string => tabsStore.getState().active;

/** Called by the editor when it mounts. */
export function attachEditor(h: EditorHandle): void {
  handle = h;
}

export function detachEditor(h: EditorHandle): void {
  if (handle !== h) return;
  for (const t of tabsStore.getState().tabs) texts.set(t.id, h.getText(t.id) ?? texts.get(t.id) ?? '');
  handle = null;
}

/** A tab's text (the initial text of a model the editor creates). */
export function getTabText(id: string): string {
  return handle?.getText(id) ?? texts.get(id) ?? '';
}

export function getEditorText(): string {
  return getTabText(activeTabId());
}

export function setTabText(id: string, text: string): void {
  texts.set(id, text);
  handle?.setText(id, text);
  noteEdit();
}

export function setEditorText(text: string): void {
  setTabText(activeTabId(), text);
}

/** The editor calls this on every change of a model. */
export function noteEdit(): void {
  tabsStore.setState((s) => ({ edits: s.edits + 1 }));
}

function uniqueName(base: string, tabs: EditorTab[]): string {
  const taken = new Set(tabs.map((t) => t.name));
  if (!taken.has(base)) return base;
  const m = base.match(/^(.*?)(\.ya?ml)?$/)!;
  for (let i = 2; ; i++) {
    const n = `${m[1]}-${i}${m[2] ?? ''}`;
    if (!taken.has(n)) return n;
  }
}

/** Opens a new tab (and makes it active); returns its id. */
export function newTab(name = 'untitled.yaml', text = ''): string {
  const id = newId();
  texts.set(id, text);
  tabsStore.setState((s) => ({ tabs: [...s.tabs, { id, name: uniqueName(name, s.tabs) }], active: id, edits: s.edits + 1 }));
  return id;
}

/** Closes a tab; the last one is never closed (it is emptied instead). */
export function closeTab(id: string): void {
  const { tabs, active } = tabsStore.getState();
  if (tabs.length === 1) {
    setTabText(id, '');
    return;
  }
  const i = tabs.findIndex((t) => t.id === id);
  if (i < 0) return;
  const rest = tabs.filter((t) => t.id !== id);
  texts.delete(id);
  handle?.dispose(id);
  tabsStore.setState((s) => ({ tabs: rest, active: active === id ? rest[Math.min(i, rest.length - 1)].id : active, edits: s.edits + 1 }));
}

/**
 * A tab name as a file path: '/'-separated segments ("overlays/prod/kustomization.yaml"), no
 * control characters, no leading '/', no empty, '.' or '..' segments; at most 120 characters.
 */
export function cleanTabPath(name: string): string {
  return [...name]
    .filter((ch) => ch >= ' ')
    .join('')
    .replace(/\\/g, '/')
    .split('/')
    .map((seg) => seg.trim())
    .filter((seg) => seg && seg !== '.' && seg !== '..')
    .join('/')
    .slice(0, 120);
}

export function renameTab(id: string, name: string): void {
  const clean = cleanTabPath(name);
  if (!clean) return;
  tabsStore.setState((s) => ({
    tabs: s.tabs.map((t) =>
      t.id === id
        ? {
            ...t,
            name: uniqueName(
              clean,
              s.tabs.filter((x) => x.id !== id),
            ),
          }
        : t,
    ),
    edits: s.edits + 1,
  }));
}

export function activateTab(id: string): void {
  if (tabsStore.getState().tabs.some((t) => t.id === id)) tabsStore.setState({ active: id });
}

/**
 * Opens files as tabs (an example from the gallery): a file whose path is already a tab's
 * name replaces that tab's text, the others become new tabs; `active` (a path) is shown.
 * Nothing is applied.
 */
export function openFiles(files: readonly { path: string; text: string }[], active?: string): void {
  const tabs = [...tabsStore.getState().tabs];
  let activeId = tabsStore.getState().active;
  for (const f of files) {
    const path = cleanTabPath(f.path);
    let tab = tabs.find((t) => t.name === path);
    if (!tab) {
      tab = { id: newId(), name: path };
      tabs.push(tab);
    }
    texts.set(tab.id, f.text);
    handle?.setText(tab.id, f.text);
    if (path === (active ?? files[0]?.path)) activeId = tab.id;
  }
  tabsStore.setState((s) => ({ tabs, active: activeId, edits: s.edits + 1 }));
}

/** Every tab's text keyed by its name (path): the file tree `kubectl apply -k` reads. */
export function tabFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of tabsStore.getState().tabs) out[t.name] = getTabText(t.id);
  return out;
}

/** Every tab with its text (persistence, export). */
export function snapshotTabs(): { tabs: TabSnapshot[]; active: string } {
  const s = tabsStore.getState();
  return { tabs: s.tabs.map((t) => ({ ...t, text: getTabText(t.id) })), active: s.active };
}

/** Replaces every tab (restore on load, import of a session). */
export function restoreTabs(tabs: TabSnapshot[], active: string): void {
  if (!tabs.length) return;
  const old = tabsStore.getState().tabs;
  for (const t of old) if (!tabs.some((x) => x.id === t.id)) handle?.dispose(t.id);
  texts.clear();
  for (const t of tabs) {
    texts.set(t.id, t.text);
    handle?.setText(t.id, t.text);
  }
  tabsStore.setState((s) => ({
    tabs: tabs.map(({ id, name }) => ({ id, name })),
    active: tabs.some((t) => t.id === active) ? active : tabs[0].id,
    edits: s.edits + 1,
  }));
}

/** Marks kubectl's answers (apply or dry run) on a tab's lines (Monaco owner "apiserver"). */
let pendingMarkers: { id: string; markers: EditorMarker[] } | null = null;
export function setApiMarkers(id: string, markers: EditorMarker[]): void {
  if (handle) handle.setApiMarkers(id, markers);
  else pendingMarkers = { id, markers };
}
export function takePendingMarkers(): { id: string; markers: EditorMarker[] } | null {
  const p = pendingMarkers;
  pendingMarkers = null;
  return p;
}

/** Monaco's markers on the active model (for the test hook). */
export function editorMarkers(): { severity: number; message: string; line: number; owner: string }[] {
  return handle?.markers() ?? [];
}

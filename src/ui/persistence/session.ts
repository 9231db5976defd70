/**
 * Nothing lost: the editor's tabs and the cluster's session log (worker/session.ts) are kept
 * in IndexedDB and restored on load; after a worker crash the cluster is rebuilt from the
 * latest log. Also opens share links (share/links.ts) and exports/imports the whole session
 * as one JSON file.
 *
 * Order on load: tabs first (the editor waits for {@link tabsReady}), then the cluster
 * worker replays the saved log before its first batch (cluster-client's restorer); a share
 * link's content opens in a new tab; with `apply=1`, once the cluster is ready, the objects it
 * would apply are shown (share/ShareConfirm.tsx) and applied only when the person agrees.
 * The replay also rebuilds the timeline: the worker sends the frames the session would have
 * sent live (protocol.ts `replayed`, ui/timeline/replay.ts), so the slider reaches back to
 * before the reload (or the crash, or the imported file's start).
 */
import { cluster, clusterReady, setSessionRestorer } from '../cluster-client';
import { newTab, restoreTabs, snapshotTabs, tabsStore, type TabSnapshot } from '../editor/editor-bridge';
import { parseShareLink, scenarioFetchProblem } from '../share/links';
import { askToApply } from '../share/confirm-apply';
import { i18next } from '../i18n/i18n';
import { setNotice } from '../store/actions';
import { kubeStore } from '../store/store';
import { loadClusterLog, loadTabs, saveClusterLog, saveTabs } from './db';
import type { SessionLog } from '../../worker/protocol';

/** How often the cluster's log is saved while the app runs (time moves on by itself). */
export const CLUSTER_SAVE_MS = 1_500;
const TABS_SAVE_MS = 400;

/** The newest log known (kept in memory too: a crashed worker cannot be asked). */
let lastLog: SessionLog | null = null;
let tabsReadyResolve: () => void = () => {};
/** Resolves when saved tabs (and a share link) are in the editor bridge. */
export const tabsReady: Promise<void> = new Promise((r) => (tabsReadyResolve = r));

/** Installs the restorer; call before startCluster(). */
export function installPersistence(): void {
  setSessionRestorer(async (api, restarted) => {
    const log = lastLog ?? (await loadClusterLog());
    if (!log) return;
    try {
      await api.importState(log);
      if (restarted) setNotice('The cluster worker crashed; the cluster was restored from the saved session.');
    } catch (e) {
      setNotice(`Could not restore the saved cluster: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  void restoreEditor();
  void clusterReady.then(() => setInterval(() => void saveCluster(), CLUSTER_SAVE_MS));
  addEventListener('pagehide', () => void saveCluster());
}

/** Saves the cluster's log now (after an apply; periodically). */
export async function saveCluster(): Promise<void> {
  if (kubeStore.getState().connection !== 'ready') return;
  try {
    lastLog = await cluster.exportState();
    await saveClusterLog(lastLog);
  } catch {
    // the worker is restarting: the last saved log stands
  }
}

async function restoreEditor(): Promise<void> {
  const saved = await loadTabs();
  if (saved?.tabs?.length) restoreTabs(saved.tabs.filter(isTab), saved.active);
  let applyText: string | null = null;
  let source = '';
  const link = parseShareLink(location.search, location.hash, location.href);
  if (link) {
    history.replaceState(null, '', location.pathname);
    if (link.kind === 'invalid') setNotice(link.reason);
    else {
      const text = link.kind === 'text' ? link.text : await fetchScenario(link.url, link.path);
      if (text !== null) {
        newTab(link.name, text);
        if (link.apply) applyText = text;
        source = link.kind === 'path' ? link.url : i18next.t('share.fromLink');
      }
    }
  }
  tabsReadyResolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  tabsStore.subscribe(() => {
    clearTimeout(timer);
    timer = setTimeout(() => void saveTabs(snapshotTabs()), TABS_SAVE_MS);
  });
  void saveTabs(snapshotTabs());
  if (applyText !== null) {
    const text = applyText;
    await clusterReady;
    // a link applies nothing by itself: the person sees what it would apply (a dry run) and says yes
    const dry = await cluster.dryRun(text);
    const objects = (dry?.results ?? []).map((r) => ({
      object: r.object,
      namespace: r.namespace,
      error: r.action === 'error' ? r.message : undefined,
    }));
    if (!(await askToApply({ source, objects }))) {
      setNotice(i18next.t('share.cancelled'));
      return;
    }
    await cluster.apply(text);
    await saveCluster();
  }
}

function isTab(t: unknown): t is TabSnapshot {
  const o = t as TabSnapshot;
  return !!o && typeof o.id === 'string' && typeof o.name === 'string' && typeof o.text === 'string';
}

/** A same-origin scenario file (`url`, checked by share/links.ts); null (with a notice) when it is not there. */
async function fetchScenario(url: string, path: string): Promise<string | null> {
  try {
    if (new URL(url).origin !== location.origin) throw new Error('not on this origin');
    const res = await fetch(url, { credentials: 'same-origin', redirect: 'error' });
    const body = res.ok ? await res.text() : '';
    const problem = scenarioFetchProblem(res.status, res.statusText, res.headers.get('content-type') ?? '', body);
    if (problem !== null) throw new Error(problem);
    return body;
  } catch (e) {
    setNotice(`Could not open scenario ${path}: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
}

// ---- export / import of the whole session -------------------------------------------

export interface SessionFile {
  format: 'kube-relay-session-file';
  version: 1;
  savedAt: string;
  editor: { tabs: TabSnapshot[]; active: string };
  cluster: SessionLog;
}

export async function exportSessionFile(): Promise<SessionFile> {
  const log = await cluster.exportState();
  return { format: 'kube-relay-session-file', version: 1, savedAt: new Date().toISOString(), editor: snapshotTabs(), cluster: log };
}

/** Loads a session file: editor tabs and the cluster (replayed). Throws on a wrong file. */
export async function importSessionFile(text: string): Promise<void> {
  let f: SessionFile;
  try {
    f = JSON.parse(text) as SessionFile;
  } catch {
    throw new Error('not a kube-relay session file (not JSON)');
  }
  if (f?.format !== 'kube-relay-session-file' || !Array.isArray(f.editor?.tabs)) throw new Error('not a kube-relay session file');
  await cluster.importState(f.cluster);
  restoreTabs(f.editor.tabs.filter(isTab), f.editor.active);
  lastLog = f.cluster;
  await saveClusterLog(f.cluster);
}

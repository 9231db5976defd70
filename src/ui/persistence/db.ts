/**
 * IndexedDB (through `idb`): one object store, two records — the editor's tabs and the
 * cluster's session log (worker/session.ts). Every failure is swallowed into `null`/false:
 * a browser without IndexedDB (private mode, tests) simply does not persist.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { SessionLog } from '../../worker/protocol';
import type { TabSnapshot } from '../editor/editor-bridge';

export interface SavedTabs {
  tabs: TabSnapshot[];
  active: string;
}

interface KubeRelayDB extends DBSchema {
  session: {
    key: 'tabs' | 'cluster';
    value: SavedTabs | SessionLog;
  };
}

const DB_NAME = 'kube-relay';
let dbPromise: Promise<IDBPDatabase<KubeRelayDB>> | null = null;

function db(): Promise<IDBPDatabase<KubeRelayDB>> {
  dbPromise ??= openDB<KubeRelayDB>(DB_NAME, 1, {
    upgrade(d) {
      d.createObjectStore('session');
    },
  });
  return dbPromise;
}

async function get<T>(key: 'tabs' | 'cluster'): Promise<T | null> {
  try {
    return ((await (await db()).get('session', key)) as T | undefined) ?? null;
  } catch {
    return null;
  }
}

async function put(key: 'tabs' | 'cluster', value: SavedTabs | SessionLog): Promise<boolean> {
  try {
    await (await db()).put('session', value, key);
    return true;
  } catch {
    return false;
  }
}

export const loadTabs = () => get<SavedTabs>('tabs');
export const saveTabs = (t: SavedTabs) => put('tabs', t);
export const loadClusterLog = () => get<SessionLog>('cluster');
export const saveClusterLog = (l: SessionLog) => put('cluster', l);

/** Wipes both records (tests, "reset everything"). */
export async function clearSaved(): Promise<void> {
  try {
    const d = await db();
    await d.delete('session', 'tabs');
    await d.delete('session', 'cluster');
  } catch {
    // nothing saved
  }
}

/**
 * Kustomize from the tabs: shown when some tab is a kustomization file (its name a path such
 * as "overlays/prod/kustomization.yaml"). "Apply -k" sends every tab to the worker, which
 * builds the chosen directory and applies the result like `kubectl apply -k DIR`; "kustomize
 * build" shows what `kubectl kustomize DIR` prints. With several kustomizations open, a
 * select picks the directory (by default the one holding the active tab).
 */
import { memo, useMemo, useState } from 'react';
import { cluster } from '../cluster-client';
import { saveCluster } from '../persistence/session';
import { tabFiles, useTabs } from './editor-bridge';
import { kustomizationDirs } from '../../worker/kustomize-paths';

const selectNames = (s: { tabs: { name: string }[] }) => s.tabs.map((t) => t.name).join('\n');
const selectActiveName = (s: { tabs: { id: string; name: string }[]; active: string }) => s.tabs.find((t) => t.id === s.active)?.name ?? '';

/** The kustomization directory that holds `path` most closely, else the last one (an overlay sorts after its base). */
export function defaultDir(dirs: readonly string[], path: string): string | undefined {
  const holding = dirs.filter((d) => d === '' || path.startsWith(`${d}/`)).sort((a, b) => b.length - a.length);
  return holding[0] ?? dirs[dirs.length - 1];
}

const label = (dir: string) => dir || '.';

export interface KustomizeBarProps {
  /** Shows `kubectl kustomize DIR`'s output (stdout, then stderr) in the pane. */
  onOutput(out: { title: string; text: string; error: boolean }): void;
}

export const KustomizeBar = memo(function KustomizeBar({ onOutput }: KustomizeBarProps) {
  const names = useTabs(selectNames);
  const activeName = useTabs(selectActiveName);
  const dirs = useMemo(() => kustomizationDirs(names.split('\n')), [names]);
  const [picked, setPicked] = useState<string | null>(null);
  if (!dirs.length) return null;
  const dir = picked !== null && dirs.includes(picked) ? picked : (defaultDir(dirs, activeName) ?? dirs[0]);

  const applyK = async () => {
    await cluster.applyKustomize(tabFiles(), dir);
    void saveCluster();
  };
  const build = async () => {
    const title = `kubectl kustomize ${label(dir)}`;
    try {
      const r = await cluster.kustomizeBuild(tabFiles(), dir);
      onOutput({ title, text: `${r.stdout}${r.stderr}`, error: r.code !== 0 });
    } catch (e) {
      onOutput({ title, text: `error: ${e instanceof Error ? e.message : String(e)}`, error: true });
    }
  };

  return (
    <div className="kustomize-bar" data-testid="kustomize-bar">
      <span className="muted">kustomize</span>
      {dirs.length > 1 ? (
        <select data-testid="kustomize-dir" aria-label="Kustomization directory" value={dir} onChange={(e) => setPicked(e.target.value)}>
          {dirs.map((d) => (
            <option key={d} value={d}>
              {label(d)}
            </option>
          ))}
        </select>
      ) : (
        <code data-testid="kustomize-dir">{label(dir)}</code>
      )}
      <button type="button" data-testid="apply-kustomize" onClick={() => void applyK()} title={`kubectl apply -k ${label(dir)}`}>
        Apply -k
      </button>
      <button type="button" data-testid="kustomize-build" onClick={() => void build()} title={`kubectl kustomize ${label(dir)}`}>
        kustomize build
      </button>
    </div>
  );
});

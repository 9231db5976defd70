/** The editor's files: one tab per file, named by its path ("overlays/prod/kustomization.yaml"); new, close, rename (double-click). */
import { memo, useEffect, useRef, useState } from 'react';
import { activateTab, closeTab, newTab, renameTab, useTabs } from './editor-bridge';

const selectTabs = (s: { tabs: { id: string; name: string }[] }) => s.tabs;
const selectActive = (s: { active: string }) => s.active;

export const TabBar = memo(function TabBar() {
  const tabs = useTabs(selectTabs);
  const active = useTabs(selectActive);
  const [editing, setEditing] = useState<string | null>(null);
  const bar = useRef<HTMLDivElement>(null);
  // many tabs (a kustomize example) overflow the bar: keep the active one in view
  useEffect(() => {
    bar.current?.querySelector('.file-tab.active')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [active, tabs.length]);
  return (
    <div className="file-tabs" role="tablist" aria-label="Files" ref={bar}>
      {tabs.map((t) => (
        <div
          key={t.id}
          role="tab"
          aria-selected={t.id === active}
          className={`file-tab${t.id === active ? ' active' : ''}`}
          data-testid="editor-tab"
          data-tab={t.name}
        >
          {editing === t.id ? (
            <input
              className="tab-rename"
              data-testid="tab-rename"
              defaultValue={t.name}
              autoFocus
              aria-label="File name"
              onBlur={(e) => {
                renameTab(t.id, e.currentTarget.value);
                setEditing(null);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter') e.currentTarget.blur();
                if (e.key === 'Escape') setEditing(null);
              }}
            />
          ) : (
            <button
              type="button"
              className="tab-name"
              onClick={() => activateTab(t.id)}
              onDoubleClick={() => setEditing(t.id)}
              title={`${t.name} (double-click to rename)`}
            >
              {t.name}
            </button>
          )}
          <button
            type="button"
            className="tab-close"
            data-testid="close-tab"
            aria-label={`Close ${t.name}`}
            title="Close"
            onClick={() => closeTab(t.id)}
          >
            ×
          </button>
        </div>
      ))}
      <button type="button" className="tab-new" data-testid="new-tab" aria-label="New file" title="New file" onClick={() => newTab()}>
        +
      </button>
    </div>
  );
});

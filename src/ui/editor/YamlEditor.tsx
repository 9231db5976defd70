/**
 * The Monaco YAML pane (a lazy chunk). Monaco is imperative: it owns its text, and the rest
 * of the app reaches it through editor-bridge.ts. Each tab is its own model with a
 * `file:///kube-relay/<id>.k8s.yaml` URI, so the Kubernetes schema (monaco-setup.ts) applies
 * (kustomization files get `<id>.kustomization.yaml`: YAML syntax checks only).
 *
 * After each edit (debounced) the worker runs a server-side dry run of the text and the
 * apiserver's answers become markers (owner "apiserver") on the offending lines; the worker
 * computes the positions, the main thread never parses YAML. Ctrl/Cmd+Enter applies.
 */
import { useEffect, useRef } from 'react';
import { compileControllerModel, loadKubernetesTypes, monaco } from './monaco-setup';
import {
  attachEditor,
  detachEditor,
  getTabText,
  isControllerTab,
  noteEdit,
  tabsStore,
  takePendingMarkers,
  type EditorHandle,
} from './editor-bridge';
import { cluster } from '../cluster-client';
import type { EditorMarker } from '../../worker/protocol';

export interface YamlEditorProps {
  /** Must be stable (useCallback): a new function re-creates the editor. */
  onApply(): void;
}

/** Quiet time after the last keystroke before the server dry run. */
export const DRY_RUN_DEBOUNCE_MS = 600;
/** Texts longer than this are not dry-run on every edit (Apply still reports). */
const DRY_RUN_MAX_CHARS = 1_000_000;
const OWNER = 'apiserver';

/** A kustomization file is not a Kubernetes object: no k8s schema, no apiserver dry run. */
const isKustomization = (id: string) =>
  /(^|\/)(kustomization\.ya?ml|Kustomization)$/.test(tabsStore.getState().tabs.find((t) => t.id === id)?.name ?? '');
/** A controller tab (docs/user-controllers.md): TypeScript or JavaScript, no dry run. */
const controllerLang = (id: string): 'typescript' | 'javascript' | null => {
  const name = tabsStore.getState().tabs.find((t) => t.id === id)?.name ?? '';
  return isControllerTab(name) ? (name.endsWith('.ts') ? 'typescript' : 'javascript') : null;
};
const uriOf = (id: string) => {
  const lang = controllerLang(id);
  if (lang) return monaco.Uri.parse(`file:///kube-relay/${id}.controller.${lang === 'typescript' ? 'ts' : 'js'}`);
  return monaco.Uri.parse(`file:///kube-relay/${id}.${isKustomization(id) ? 'kustomization' : 'k8s'}.yaml`);
};

/** The marker on line 1 of a file too large for the dry run on every edit. */
function largeFileMarker(chars: number): monaco.editor.IMarkerData {
  const mb = (chars / (1024 * 1024)).toFixed(1);
  return {
    severity: monaco.MarkerSeverity.Warning,
    message: `Large file (${mb} MB, ${chars} characters): not dry-run while you type. kubectl here refuses manifests over 3 MiB ("manifest too large"); Apply shows the apiserver's answer.`,
    startLineNumber: 1,
    startColumn: 1,
    endLineNumber: 1,
    endColumn: 2,
    source: 'kube-relay',
  };
}

function toMonaco(m: EditorMarker): monaco.editor.IMarkerData {
  return {
    severity: m.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
    message: m.message,
    startLineNumber: m.line,
    startColumn: m.column,
    endLineNumber: m.endLine,
    endColumn: m.endColumn,
    source: 'kube-apiserver (dry run)',
  };
}

export default function YamlEditor({ onApply }: YamlEditorProps) {
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const models = new Map<string, monaco.editor.ITextModel>();
    const timers = new Map<string, ReturnType<typeof setTimeout>>();
    const disposers: monaco.IDisposable[] = [];
    let seq = 0;
    /** The model version Apply last marked (its markers stand until the text changes). */
    const appliedVersion = new WeakMap<monaco.editor.ITextModel, number>();
    /**
     * monaco-yaml's worker overflows its stack on very large documents (a 5 MB map): such a
     * model is edited as plain text (no completion or schema checks; Apply still validates).
     */
    const fitLanguage = (model: monaco.editor.ITextModel) => {
      if (/\.controller\.(ts|js)$/.test(model.uri.path)) return;
      const want = model.getValueLength() > DRY_RUN_MAX_CHARS ? 'plaintext' : 'yaml';
      if (model.getLanguageId() !== want) monaco.editor.setModelLanguage(model, want);
    };

    const dryRun = (id: string) => {
      const model = models.get(id);
      if (!model || model.isDisposed()) return;
      const version = model.getVersionId();
      const text = model.getValue(monaco.editor.EndOfLinePreference.LF);
      if (isKustomization(id) || controllerLang(id)) return;
      if (text.length > DRY_RUN_MAX_CHARS) {
        // too big to check on every edit: say so where the eye is (Apply still asks the apiserver),
        // unless Apply has already marked this very version with the apiserver's answer
        if (appliedVersion.get(model) !== version) monaco.editor.setModelMarkers(model, OWNER, [largeFileMarker(text.length)]);
        return;
      }
      const mine = ++seq;
      cluster
        .dryRun(text)
        .then((r) => {
          if (!r || mine !== seq || model.isDisposed() || model.getVersionId() !== version) return;
          monaco.editor.setModelMarkers(model, OWNER, r.markers.map(toMonaco));
        })
        .catch(() => {});
    };
    const schedule = (id: string) => {
      clearTimeout(timers.get(id));
      timers.set(
        id,
        setTimeout(() => dryRun(id), DRY_RUN_DEBOUNCE_MS),
      );
    };

    const modelFor = (id: string) => {
      let model = models.get(id);
      if (model && !model.isDisposed()) return model;
      const uri = uriOf(id);
      model = monaco.editor.getModel(uri) ?? monaco.editor.createModel(getTabText(id), controllerLang(id) ?? 'yaml', uri);
      if (controllerLang(id)) void loadKubernetesTypes();
      model.setEOL(monaco.editor.EndOfLineSequence.LF);
      fitLanguage(model);
      models.set(id, model);
      disposers.push(
        model.onDidChangeContent(() => {
          fitLanguage(model!);
          monaco.editor.setModelMarkers(model!, OWNER, []);
          noteEdit();
          schedule(id);
        }),
      );
      return model;
    };

    const editor = monaco.editor.create(host.current!, {
      model: modelFor(tabsStore.getState().active),
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 12,
      lineNumbersMinChars: 3,
      scrollBeyondLastLine: false,
      tabSize: 2,
      insertSpaces: true,
      renderWhitespace: 'none',
      wordWrap: 'on',
      wrappingIndent: 'deepIndent',
      fixedOverflowWidgets: true,
    });
    const handle: EditorHandle = {
      getText: (id) => {
        const m = models.get(id);
        return m && !m.isDisposed() ? m.getValue(monaco.editor.EndOfLinePreference.LF) : undefined;
      },
      setText: (id, t) => {
        const m = models.get(id);
        if (m && !m.isDisposed()) m.setValue(t);
      },
      dispose: (id) => {
        models.get(id)?.dispose();
        models.delete(id);
      },
      markers: () => {
        const m = editor.getModel();
        return m
          ? monaco.editor
              .getModelMarkers({ resource: m.uri })
              .map((x) => ({ severity: x.severity, message: x.message, line: x.startLineNumber, owner: x.owner }))
          : [];
      },
      setApiMarkers: (id, markers) => {
        const m = models.get(id);
        if (m && !m.isDisposed()) {
          appliedVersion.set(m, m.getVersionId());
          monaco.editor.setModelMarkers(m, OWNER, markers.map(toMonaco));
        }
      },
    };
    handle.compile = (id) => compileControllerModel(modelFor(id));
    attachEditor(handle);
    const pending = takePendingMarkers();
    if (pending) handle.setApiMarkers(pending.id, pending.markers);
    schedule(tabsStore.getState().active);

    // tab switches: show the tab's model (created on first use)
    let shown = tabsStore.getState().active;
    const unsubscribe = tabsStore.subscribe((s) => {
      // a renamed tab whose kind changed (untitled.yaml → my.controller.ts): a model of the new kind, same text
      for (const t of s.tabs) {
        const m = models.get(t.id);
        if (!m || m.isDisposed() || m.uri.toString() === uriOf(t.id).toString()) continue;
        const text = m.getValue(monaco.editor.EndOfLinePreference.LF);
        models.delete(t.id);
        const next = modelFor(t.id);
        next.setValue(text);
        if (t.id === shown) editor.setModel(next);
        m.dispose();
      }
      if (s.active === shown) return;
      shown = s.active;
      editor.setModel(modelFor(s.active));
      schedule(s.active);
    });
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => onApply());
    return () => {
      unsubscribe();
      for (const t of timers.values()) clearTimeout(t);
      detachEditor(handle);
      for (const d of disposers) d.dispose();
      editor.dispose();
      for (const m of models.values()) m.dispose();
    };
  }, [onApply]);

  return <div ref={host} className="monaco-host" />;
}

/**
 * The Monaco YAML pane (a lazy chunk). Monaco is imperative: it owns its text, and the rest
 * of the app reaches it through editor-bridge.ts. Ctrl/Cmd+Enter applies.
 */
import { useEffect, useRef } from 'react';
import { monaco } from './monaco-setup';
import { attachEditor, detachEditor } from './editor-bridge';

export interface YamlEditorProps {
  /** Must be stable (useCallback): a new function re-creates the editor. */
  onApply(): void;
}

export default function YamlEditor({ onApply }: YamlEditorProps) {
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const uri = monaco.Uri.parse('file:///kube-relay/manifest.k8s.yaml');
    const model = monaco.editor.getModel(uri) ?? monaco.editor.createModel('', 'yaml', uri);
    model.setEOL(monaco.editor.EndOfLineSequence.LF);
    const editor = monaco.editor.create(host.current!, {
      model,
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
    const handle = {
      getText: () => model.getValue(monaco.editor.EndOfLinePreference.LF),
      setText: (t: string) => model.setValue(t),
      markers: () =>
        monaco.editor.getModelMarkers({ resource: uri }).map((m) => ({ severity: m.severity, message: m.message, line: m.startLineNumber })),
    };
    model.setValue(attachEditor(handle));
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => onApply());
    return () => {
      detachEditor(handle);
      editor.dispose();
      model.dispose();
    };
  }, [onApply]);

  return <div ref={host} className="monaco-host" />;
}

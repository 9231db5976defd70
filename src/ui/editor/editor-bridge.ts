/**
 * The editor's text, reachable without importing Monaco: before the lazy editor mounts the
 * text lives here; once mounted, Monaco's model is the source and this module forwards.
 */
import { SEED_MANIFEST } from './seed-manifest';

interface EditorHandle {
  getText(): string;
  setText(text: string): void;
  markers(): { severity: number; message: string; line: number }[];
}

let pendingText = SEED_MANIFEST;
let handle: EditorHandle | null = null;

/** Called by the editor when it mounts; returns the text it should start with. */
export function attachEditor(h: EditorHandle): string {
  handle = h;
  return pendingText;
}

export function detachEditor(h: EditorHandle): void {
  if (handle === h) {
    pendingText = h.getText();
    handle = null;
  }
}

export function getEditorText(): string {
  return handle ? handle.getText() : pendingText;
}

export function setEditorText(text: string): void {
  if (handle) handle.setText(text);
  else pendingText = text;
}

/** Monaco's markers on the model (for the test hook). */
export function editorMarkers(): { severity: number; message: string; line: number }[] {
  return handle?.markers() ?? [];
}

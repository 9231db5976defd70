/** Whether the examples gallery is open (a tiny vanilla store: the Toolbar button opens it, Esc closes it). */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';

const galleryStore = createStore<{ open: boolean }>()(() => ({ open: false }));

export function setGalleryOpen(open: boolean): void {
  galleryStore.setState({ open });
}

export function useGalleryOpen(): boolean {
  return useStore(galleryStore, (s) => s.open);
}

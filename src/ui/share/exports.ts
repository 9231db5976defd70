/**
 * Downloads: the sequence diagram as SVG, PNG or Mermaid text, the graph as PNG, and the
 * session as JSON. Everything is drawn locally (the diagram's SVG onto a canvas; the graph
 * through html-to-image, loaded lazily) — nothing leaves the page.
 */
import { kubeStore } from '../store/store';
import { toMermaid, visibleHops } from '../../cluster/relay/sequence/to-mermaid';

export function download(name: string, data: Blob | string, type = 'text/plain'): void {
  const blob = typeof data === 'string' ? new Blob([data], { type }) : data;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The relay as Mermaid text, with the diagram's current view options (all hops shown, not cut). */
export function mermaidText(): string {
  const s = kubeStore.getState();
  return toMermaid(visibleHops(s.hops, { ...s.sequence, fromSeq: s.sequence.pinned ? s.applySeq : null }));
}

/** The rendered diagram as a standalone SVG document, or null before it has rendered. */
export function diagramSvg(): { text: string; width: number; height: number } | null {
  const svg = document.querySelector<SVGSVGElement>('[data-testid=sequence-diagram] svg');
  if (!svg) return null;
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const box = svg.viewBox.baseVal;
  const width = Math.ceil(box?.width || svg.getBoundingClientRect().width);
  const height = Math.ceil(box?.height || svg.getBoundingClientRect().height);
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  return { text: `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}`, width, height };
}

/** Draws an SVG document onto a white canvas and returns it as PNG. */
export async function svgToPng(svg: string, width: number, height: number, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((res, rej) => canvas.toBlob((b) => (b ? res(b) : rej(new Error('PNG encoding failed'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}

export async function exportDiagram(format: 'svg' | 'png' | 'mmd'): Promise<void> {
  if (format === 'mmd') {
    download('kube-relay-sequence.mmd', mermaidText());
    return;
  }
  const svg = diagramSvg();
  if (!svg) throw new Error('the sequence diagram has not rendered yet');
  if (format === 'svg') download('kube-relay-sequence.svg', svg.text, 'image/svg+xml');
  else download('kube-relay-sequence.png', await svgToPng(svg.text, svg.width, svg.height));
}

/** The graph pane (React Flow viewport) as PNG. */
export async function exportGraphPng(): Promise<void> {
  const el =
    document.querySelector<HTMLElement>('[data-testid=graph] .react-flow') ?? document.querySelector<HTMLElement>('[data-testid=graph]');
  if (!el) throw new Error('the graph is not on the page');
  const { toBlob } = await import('html-to-image');
  const blob = await toBlob(el, {
    backgroundColor: getComputedStyle(document.body).backgroundColor || '#fff',
    pixelRatio: 2,
    skipFonts: true,
    // controls and the minimap are chrome, not the picture
    filter: (n) =>
      !(n instanceof HTMLElement && (n.classList.contains('react-flow__controls') || n.classList.contains('react-flow__minimap'))),
  });
  if (!blob) throw new Error('PNG encoding failed');
  download('kube-relay-graph.png', blob);
}

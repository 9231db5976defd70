/** A line of SOURCES.md-style markdown as React text: `code` and **bold** only; everything else (markup included) stays text. */
import { Fragment } from 'react';

export function RichText({ text }: { text: string }) {
  const parts = text.split(/(`[^`]*`|\*\*[^*]+\*\*)/g);
  return (
    <>
      {parts.map((p, i) =>
        p.startsWith('`') && p.endsWith('`') && p.length > 1 ? (
          <code key={i}>{p.slice(1, -1)}</code>
        ) : p.startsWith('**') && p.endsWith('**') && p.length > 4 ? (
          <strong key={i}>{p.slice(2, -2)}</strong>
        ) : (
          <Fragment key={i}>{p}</Fragment>
        ),
      )}
    </>
  );
}

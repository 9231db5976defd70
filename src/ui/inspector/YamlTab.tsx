/**
 * The object as `kubectl get -o yaml` shows it (managedFields left out), in three parts:
 * metadata, spec (the desired state) and status (the current state). The engine's printer
 * (kubectl/cmd/output.ts toYAML: sorted keys, go-yaml quoting such as
 * `creationTimestamp: "2026-01-01T00:00:20Z"`) prints them in the worker; attached to an API
 * server (no worker), the lazy `yaml` chunk stringifies them instead. Parsing stays in the worker.
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KObject } from '../store/types';
import { cluster } from '../cluster-client';

interface Part {
  id: string;
  title: string;
  value: unknown;
}

/** Prints every part, in the worker when there is one; JSON until the answer arrives. */
function usePrinted(values: unknown[]): string[] {
  const [printed, setPrinted] = useState<{ for: unknown[]; texts: string[] } | null>(null);
  useEffect(() => {
    let alive = true;
    cluster
      .printYAML(values)
      .catch(async () => {
        const { stringify } = await import('yaml');
        return values.map((v) => stringify(v, { lineWidth: 0, sortMapEntries: true }));
      })
      .then((texts) => alive && setPrinted({ for: values, texts }))
      .catch(() => {});
    return () => {
      alive = false;
    };
  }, [values]);
  return printed?.for === values ? printed.texts : values.map((v) => JSON.stringify(v, null, 2));
}

export function YamlTab({ obj }: { obj: KObject }) {
  const { t } = useTranslation();
  const parts = useMemo((): Part[] => {
    const { metadata, spec, status, apiVersion, kind, ...rest } = obj;
    const { managedFields: _managed, ...meta } = metadata;
    const out: Part[] = [{ id: 'metadata', title: t('inspector.metadata'), value: { apiVersion, kind, metadata: meta, ...rest } }];
    if (spec !== undefined) out.push({ id: 'spec', title: t('inspector.desired'), value: { spec } });
    if (status !== undefined) out.push({ id: 'status', title: t('inspector.current'), value: { status } });
    return out;
  }, [obj, t]);
  const values = useMemo(() => parts.map((p) => p.value), [parts]);
  const texts = usePrinted(values);
  return (
    <div data-testid="inspector-yaml" className="yaml-parts">
      {parts.map((p, i) => (
        <section key={p.id} className={`yaml-part ${p.id}`}>
          <h3>{p.title}</h3>
          <pre className="yaml">{texts[i]}</pre>
        </section>
      ))}
    </div>
  );
}

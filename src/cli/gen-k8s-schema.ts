/**
 * `npm run gen:k8s`: generates the editor's JSON Schema (src/ui/editor/k8s-schema.json) from
 * kubernetes-types with ts-json-schema-generator. The output is committed,
 * so builds need nothing; regenerate when kubernetes-types is bumped.
 *
 * Post-processing:
 * - `Quantity` becomes string-or-number (manifests write `cpu: 1`);
 * - `IntOrString`-typed fields (`targetPort`, `maxSurge`…) are already `number | string`;
 * - an extra union member accepts any kind not listed (CRDs and their instances, List) with
 *   only apiVersion/kind required, so custom resources get no false warnings;
 * - the schema is written minified (it loads with the lazy Monaco chunk).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createGenerator } from 'ts-json-schema-generator';

type Json = Record<string, any>;

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const out = here('../ui/editor/k8s-schema.json');

const started = Date.now();
const schema = createGenerator({
  path: here('./k8s-schema/manifest-types.ts'),
  type: 'Manifest',
  skipTypeCheck: true,
  expose: 'export',
  jsDoc: 'extended',
  additionalProperties: false,
  topRef: false,
}).createSchema('Manifest') as Json;

const defs: Json = schema.definitions ?? {};
for (const name of Object.keys(defs)) {
  if (decodeURIComponent(name).endsWith('Quantity')) defs[name] = { ...defs[name], type: ['string', 'number'] };
}

// the kinds listed, and a catch-all for every other kind
const members: Json[] = schema.anyOf ?? [];
const kinds = new Set<string>();
const collect = (n: unknown): void => {
  if (!n || typeof n !== 'object') return;
  const o = n as Json;
  if (o.properties?.kind?.const) kinds.add(o.properties.kind.const);
  if (o.properties?.kind?.enum) for (const k of o.properties.kind.enum) kinds.add(k);
  for (const v of Object.values(o)) if (v && typeof v === 'object') collect(v);
};
collect(members);
collect(defs);
schema.anyOf = [
  ...members,
  {
    type: 'object',
    description: 'A kind the editor has no schema for (a custom resource, a List…): only apiVersion and kind are checked.',
    properties: { apiVersion: { type: 'string' }, kind: { type: 'string', not: { enum: [...kinds].sort() } } },
    required: ['apiVersion', 'kind'],
  },
];
schema.title = 'Kubernetes manifest (kubernetes-types 1.30 API types)';

const text = JSON.stringify(schema);
writeFileSync(out, `${text}\n`);
console.log(
  `wrote ${out}: ${kinds.size} kinds, ${Object.keys(defs).length} definitions, ${(text.length / 1024).toFixed(0)} KB in ${Date.now() - started} ms`,
);

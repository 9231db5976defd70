/** parseScenarioText's YAML guards refuse what is deep, not what merely contains brackets. */
import { describe, expect, it } from 'vitest';
import { parseScenarioText } from './text';

describe('parseScenarioText', () => {
  it('brackets inside a manifest (a block scalar) or a quoted string are text, not nesting', () => {
    const deep = `${'['.repeat(200)}${']'.repeat(200)}`;
    const sc = parseScenarioText(`steps:\n  - apply: |\n      ${deep}\n  - note: "${deep}"\n`);
    expect(sc.steps).toEqual([
      { kind: 'apply', manifest: `${deep}\n` },
      { kind: 'note', text: { en: deep } },
    ]);
  });

  it('64 levels of flow nesting are allowed, 65 are not', () => {
    // the file (1), cluster (2), images (3), then n lists: 3 + n levels
    const flow = (n: number) => `cluster: {images: {missing: ${'['.repeat(n)}${']'.repeat(n)}}}\nsteps: []\n`;
    expect(() => parseScenarioText(flow(61))).toThrow('cluster.images.missing: must be a list of image references');
    expect(() => parseScenarioText(flow(62))).toThrow('invalid YAML: nested deeper than 64 levels');
  });

  it('refuses 1,000,000 levels of flow nesting from the lexer alone, quickly', () => {
    const text = `steps: ${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}\n`;
    expect(() => parseScenarioText(text)).toThrow('invalid YAML: nested deeper than 64 levels');
  });
});

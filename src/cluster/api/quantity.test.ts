import { describe, expect, it } from 'vitest';
import {
  bytesOf,
  cpuMillis,
  formatBytes,
  formatMilliCPU,
  isQuantity,
  parseQuantity,
  QUANTITY_FORMAT_ERROR,
  quantityMilliValue,
  quantityValue,
} from './quantity';

describe('quantity', () => {
  const cases: { name: string; text: string | number; milli: number; value: number }[] = [
    { name: 'millicores', text: '500m', milli: 500, value: 1 },
    { name: 'whole core', text: '1', milli: 1000, value: 1 },
    { name: 'number from YAML', text: 2, milli: 2000, value: 2 },
    { name: 'fractional cores', text: '1.5', milli: 1500, value: 2 },
    { name: 'binary suffix', text: '2Gi', milli: 2147483648000, value: 2147483648 },
    { name: 'Mi', text: '128Mi', milli: 134217728000, value: 134217728 },
    { name: 'plain bytes', text: '128974848', milli: 128974848000, value: 128974848 },
    { name: 'exponent', text: '129e6', milli: 129000000000, value: 129000000 },
    { name: 'decimal M', text: '129M', milli: 129000000000, value: 129000000 },
    { name: 'kilo', text: '100k', milli: 100000000, value: 100000 },
    { name: 'tiny millicores round up', text: '0.0001', milli: 1, value: 1 },
    { name: 'nano rounds up to 1m', text: '1n', milli: 1, value: 1 },
    { name: 'zero', text: '0', milli: 0, value: 0 },
    { name: 'leading dot', text: '.5', milli: 500, value: 1 },
    { name: 'negative', text: '-1', milli: -1000, value: -1 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(quantityMilliValue(c.text)).toBe(c.milli);
      expect(quantityValue(c.text)).toBe(c.value);
    });
  }

  it('rejects malformed quantities with the upstream message', () => {
    for (const bad of ['', 'abc', '1Gb', '1.2.3', 'Mi', '5 m']) {
      expect(() => parseQuantity(bad), bad).toThrow(QUANTITY_FORMAT_ERROR);
      expect(isQuantity(bad)).toBe(false);
    }
  });

  it('helpers for cpu and bytes', () => {
    expect(cpuMillis('250m')).toBe(250);
    expect(cpuMillis(undefined)).toBe(0);
    expect(bytesOf('8Gi')).toBe(8 * 2 ** 30);
    expect(formatMilliCPU(1500)).toBe('1500m');
    expect(formatMilliCPU(2000)).toBe('2');
    expect(formatBytes(200 * 2 ** 20)).toBe('200Mi');
    expect(formatBytes(1000)).toBe('1000');
  });
});

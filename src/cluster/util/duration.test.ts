/** Scenario durations follow Go's time.ParseDuration (its own test table, src/time/time_test.go). */
import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration, parseGoDurationNs } from './duration';

describe('parseGoDurationNs (time.ParseDuration)', () => {
  it.each([
    ['0', 0n],
    ['5s', 5_000_000_000n],
    ['30s', 30_000_000_000n],
    ['1478s', 1_478_000_000_000n],
    ['-5s', -5_000_000_000n],
    ['+5s', 5_000_000_000n],
    ['-0', 0n],
    ['+0', 0n],
    ['5.0s', 5_000_000_000n],
    ['5.6s', 5_600_000_000n],
    ['5.s', 5_000_000_000n],
    ['.5s', 500_000_000n],
    ['1.004s', 1_004_000_000n],
    ['100.00100s', 100_001_000_000n],
    ['10ns', 10n],
    ['11us', 11_000n],
    ['12µs', 12_000n],
    ['12μs', 12_000n],
    ['13ms', 13_000_000n],
    ['15m', 900_000_000_000n],
    ['16h', 57_600_000_000_000n],
    ['3h30m', 12_600_000_000_000n],
    ['10.5s4m', 250_500_000_000n],
    ['-2m3.4s', -123_400_000_000n],
    ['1h2m3s4ms5us6ns', 3_723_004_005_006n],
    ['39h9m14.425s', 140_954_425_000_000n],
    ['52763797000ns', 52_763_797_000n],
    ['0.3333333333333333333h', 1_200_000_000_000n],
    ['9007199254740993ns', 9_007_199_254_740_993n],
    ['9223372036854775807ns', 9_223_372_036_854_775_807n],
    ['9223372036854775.807us', 9_223_372_036_854_775_807n],
    ['9223372036s854ms775us807ns', 9_223_372_036_854_775_807n],
    ['-9223372036854775808ns', -9_223_372_036_854_775_808n],
    ['0.100000000000000000000h', 360_000_000_000n],
    ['0.830103483285477580700h', 2_988_372_539_827n],
  ])('%s', (text, ns) => {
    expect(parseGoDurationNs(text)).toBe(ns);
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['3', 'time: missing unit in duration "3"'],
    ['-', 'time: invalid duration "-"'],
    ['s', 'time: invalid duration "s"'],
    ['.', 'time: invalid duration "."'],
    ['-.', 'time: invalid duration "-."'],
    ['.s', 'time: invalid duration ".s"'],
    ['+.s', 'time: invalid duration "+.s"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['1m30', 'time: missing unit in duration "1m30"'],
    ['9223372036854775810ns', 'time: invalid duration "9223372036854775810ns"'],
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
    ['-9223372036854775809ns', 'time: invalid duration "-9223372036854775809ns"'],
    ['3000000h', 'time: invalid duration "3000000h"'],
    ['9223372036854775.808us', 'time: invalid duration "9223372036854775.808us"'],
    ['9223372036854ms775us808ns', 'time: invalid duration "9223372036854ms775us808ns"'],
  ])('%s is refused', (text, msg) => {
    expect(() => parseGoDurationNs(text)).toThrow(new Error(msg));
  });
});

describe('parseDuration (scenario milliseconds)', () => {
  it.each([
    ['500ms', 500],
    ['90s', 90_000],
    ['1m30s', 90_000],
    ['1.5h', 5_400_000],
    ['0', 0],
    ['1500us', 2],
    ['1400us', 1],
  ])('%s → %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each([
    [-5, 'time: missing unit in duration "-5"'],
    [90, 'time: missing unit in duration "90"'],
    ['-1s', 'must not be negative (got "-1s")'],
  ])('%s is refused', (v, msg) => expect(() => parseDuration(v)).toThrow(new Error(msg)));

  it('takes the YAML number 0 as "0"', () => expect(parseDuration(0)).toBe(0));
});

describe('formatDuration (time.Duration.String)', () => {
  it.each([
    [0, '0s'],
    [500, '500ms'],
    [1500, '1.5s'],
    [90_000, '1m30s'],
    [86_400_000, '24h0m0s'],
    [86_400_001, '24h0m0.001s'],
    [3_723_004, '1h2m3.004s'],
  ])('%d ms → %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});

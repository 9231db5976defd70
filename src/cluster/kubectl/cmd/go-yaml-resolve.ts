/**
 * When sigs.k8s.io/yaml (goyaml.v2, a fork of go-yaml v2.4.0) quotes a string. Its encoder
 * (encode.go `stringv`) resolves the string as an untagged plain scalar with YAML 1.1 rules
 * (resolve.go `resolve("", s)`) and double-quotes it unless that gives `!!str` and it is no
 * base-60 float: `"2026-01-01T00:00:20Z"`, `"yes"`, `"on"`, `"y"`, `"123"`, `"1_000"`,
 * `"0x1F"`, `"1:20"`, `"~"`, `""`. Strings with a line break are literal blocks; anything else
 * is plain unless the emitter finds it cannot be (then libyaml single-quotes it).
 */

/** resolve.go resolveMapList: the YAML 1.1 bool/null/float/merge words. */
const RESOLVE_MAP = new Set([
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'true',
  'True',
  'TRUE',
  'on',
  'On',
  'ON',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'false',
  'False',
  'FALSE',
  'off',
  'Off',
  'OFF',
  '',
  '~',
  'null',
  'Null',
  'NULL',
  '.nan',
  '.NaN',
  '.NAN',
  '.inf',
  '.Inf',
  '.INF',
  '+.inf',
  '+.Inf',
  '+.INF',
  '-.inf',
  '-.Inf',
  '-.INF',
  '<<',
]);

/** resolve.go yamlStyleFloat. */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/** resolve.go isBase60Float's full match. */
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
/** strconv.ParseInt/ParseUint with base 0 (sign, then 0x/0o/0b/0 prefix or decimal). */
const GO_INT = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;

/** True when go-yaml v2 would resolve the plain scalar `s` to something other than a string. */
export function goResolvesNonString(s: string): boolean {
  if (RESOLVE_MAP.has(s)) return true;
  const c = s[0];
  if (c === '.') return YAML_STYLE_FLOAT.test(s) && Number.isFinite(Number(s));
  if (!(c === '+' || c === '-' || (c >= '0' && c <= '9'))) return false;
  if (isTimestamp(s)) return true;
  const plain = s.replaceAll('_', '');
  if (goInt(plain)) return true;
  return YAML_STYLE_FLOAT.test(plain) && Number.isFinite(Number(plain));
}

/** resolve.go isBase60Float (`1:20`, `-3:25:45.5`). */
export function isBase60Float(s: string): boolean {
  return s.includes(':') && BASE60_FLOAT.test(s);
}

/** Whether encode.go prints the string double-quoted. */
export function goYamlNeedsDoubleQuotes(s: string): boolean {
  return goResolvesNonString(s) || isBase60Float(s);
}

function goInt(plain: string): boolean {
  const m = GO_INT.exec(plain);
  if (!m) return false;
  let digits = m[2];
  if (/^0[oO]/.test(digits)) digits = `0o${digits.slice(2)}`;
  else if (/^0[0-7]+$/.test(digits)) digits = `0o${digits.slice(1)}`;
  const n = BigInt(digits);
  // ParseInt (int64) or, without a minus sign, ParseUint (uint64)
  return m[1] === '-' ? n <= 2n ** 63n : n < 2n ** 64n;
}

/** resolve.go parseTimestamp: YYYY-M-D, optionally with a time (T/t/space) as Go's time.Parse accepts it. */
const TIMESTAMP_FORMATS = [
  /^(\d{4})-(\d{1,2})-(\d{1,2})[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2})$/,
];

function isTimestamp(s: string): boolean {
  for (const re of TIMESTAMP_FORMATS) {
    const m = re.exec(s);
    if (!m) continue;
    const [y, mo, d, h = 0, mi = 0, sec = 0, zh = 0, zm = 0] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
    const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
    const days = mo === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(mo) ? 30 : 31;
    if (mo >= 1 && mo <= 12 && d >= 1 && d <= days && h < 24 && mi < 60 && sec < 60 && zh < 24 && zm < 60) return true;
  }
  return false;
}

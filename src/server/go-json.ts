/**
 * The syntax errors of Go's encoding/json (scanner.go's checkValid, which json.Unmarshal runs
 * before decoding anything): `invalid character 'a' looking for beginning of value`,
 * `unexpected end of JSON input`, … — the texts kube-apiserver puts in decode errors
 * (apimachinery's SimpleMetaFactory.Interpret: `couldn't get version/kind; json parse error: …`).
 */

/** scanner.go quoteChar: `'x'`, `'\''`, `'"'`, `'\n'`, `'\x01'`. */
function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  const s = JSON.stringify(String.fromCharCode(c)).slice(1, -1);
  if (c < 0x20 && !/^\\[nrtbf]$/.test(s)) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  if (c === 0x7f) return `'\\x7f'`;
  return `'${s}'`;
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

class Syntax extends Error {}

/**
 * Go's json syntax error for `data`, or undefined when `data` is one valid JSON value.
 * Works on the UTF-8 bytes, as Go's scanner does. Iterative (no recursion), so deep nesting is fine.
 */
export function goJSONSyntaxError(data: Uint8Array): string | undefined {
  let i = 0;
  const n = data.length;
  const err = (what: string): never => {
    throw new Syntax(`invalid character ${quoteChar(data[i])} ${what}`);
  };
  const eof = (): never => {
    throw new Syntax('unexpected end of JSON input');
  };
  const ws = () => {
    while (i < n && isSpace(data[i])) i++;
  };
  const literal = (word: string) => {
    for (let k = 1; k < word.length; k++) {
      i++;
      if (i >= n) eof();
      if (data[i] !== word.charCodeAt(k)) err(`in literal ${word} (expecting ${quoteChar(word.charCodeAt(k))})`);
    }
    i++;
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      if (i >= n) eof();
      const c = data[i];
      if (c === 0x22) {
        i++;
        return;
      }
      if (c === 0x5c) {
        i++;
        if (i >= n) eof();
        const e = data[i];
        if (e === 0x75) {
          for (let k = 0; k < 4; k++) {
            i++;
            if (i >= n) eof();
            if (!isHex(data[i])) err('in \\u hexadecimal character escape');
          }
        } else if (!'"\\/bfnrt'.includes(String.fromCharCode(e))) err('in string escape code');
        i++;
        continue;
      }
      if (c < 0x20) err('in string literal');
      i++;
    }
  };
  const number = () => {
    if (data[i] === 0x2d) {
      i++;
      if (i >= n) eof();
      if (!isDigit(data[i])) err('in numeric literal');
    }
    if (data[i] === 0x30) i++;
    else while (i < n && isDigit(data[i])) i++;
    if (i < n && data[i] === 0x2e) {
      i++;
      if (i >= n) eof();
      if (!isDigit(data[i])) err('after decimal point in numeric literal');
      while (i < n && isDigit(data[i])) i++;
    }
    if (i < n && (data[i] === 0x65 || data[i] === 0x45)) {
      i++;
      if (i < n && (data[i] === 0x2b || data[i] === 0x2d)) i++;
      if (i >= n) eof();
      if (!isDigit(data[i])) err('in exponent of numeric literal');
      while (i < n && isDigit(data[i])) i++;
    }
  };
  // stack of open containers: '{' or '['
  const stack: number[] = [];
  try {
    for (;;) {
      // expecting a value
      ws();
      if (i >= n) eof();
      const c = data[i];
      let scalar = true;
      if (c === 0x7b) {
        i++;
        ws();
        if (i >= n) eof();
        if (data[i] === 0x7d) i++;
        else {
          if (data[i] !== 0x22) err('looking for beginning of object key string');
          string();
          ws();
          if (i >= n) eof();
          if (data[i] !== 0x3a) err('after object key');
          i++;
          stack.push(0x7b);
          scalar = false;
        }
      } else if (c === 0x5b) {
        i++;
        ws();
        if (i >= n) eof();
        if (data[i] === 0x5d) i++;
        else {
          stack.push(0x5b);
          scalar = false;
        }
      } else if (c === 0x22) string();
      else if (c === 0x2d || isDigit(c)) number();
      else if (c === 0x74) literal('true');
      else if (c === 0x66) literal('false');
      else if (c === 0x6e) literal('null');
      else err('looking for beginning of value');
      if (!scalar) continue;
      // a value ended: close containers as far as the input says
      for (;;) {
        const top = stack[stack.length - 1];
        ws();
        if (top === undefined) {
          if (i < n) err('after top-level value');
          return undefined;
        }
        if (i >= n) eof();
        if (top === 0x7b) {
          if (data[i] === 0x2c) {
            i++;
            ws();
            if (i >= n) eof();
            if (data[i] !== 0x22) err('looking for beginning of object key string');
            string();
            ws();
            if (i >= n) eof();
            if (data[i] !== 0x3a) err('after object key');
            i++;
            break;
          }
          if (data[i] === 0x7d) {
            i++;
            stack.pop();
            continue;
          }
          err('after object key:value pair');
        } else {
          if (data[i] === 0x2c) {
            i++;
            break;
          }
          if (data[i] === 0x5d) {
            i++;
            stack.pop();
            continue;
          }
          err('after array element');
        }
      }
    }
  } catch (e) {
    if (e instanceof Syntax) return e.message;
    throw e;
  }
}

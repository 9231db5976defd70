/**
 * The label selector parser of k8s.io/apimachinery/pkg/labels/selector.go (Lexer, Parser,
 * NewRequirement), ported token for token so that a malformed selector fails with the text
 * kube-apiserver answers (400 BadRequest): `unable to parse requirement: found 'b', expected:
 * in, notin, =, ==, !=, gt, lt`, `found ',', expected: identifier after ','`, key and value
 * validation as field errors (`<nil>: Invalid value: "a@b": name part must …`).
 */
import { isQualifiedName, isValidLabelValue } from './validation/names';

/** A requirement's operator as the parser spells it (selection.Operator). */
export type Operator = 'in' | 'notin' | 'exists' | '!' | '=' | '==' | '!=' | 'gt' | 'lt';

/** One requirement of a selector: key, operator, values (labels.Requirement). */
export interface Requirement {
  key: string;
  op: Operator;
  values: string[];
}

/** A selector that does not parse; `message` is selector.go's error text. */
export class SelectorParseError extends Error {}

const enum Tok {
  Error,
  End,
  ClosedPar,
  Comma,
  DoesNotExist,
  DoubleEquals,
  Equals,
  GreaterThan,
  Identifier,
  In,
  LessThan,
  NotEquals,
  NotIn,
  OpenPar,
}

const STRING_TO_TOKEN = new Map<string, Tok>([
  [')', Tok.ClosedPar],
  [',', Tok.Comma],
  ['!', Tok.DoesNotExist],
  ['==', Tok.DoubleEquals],
  ['=', Tok.Equals],
  ['>', Tok.GreaterThan],
  ['in', Tok.In],
  ['<', Tok.LessThan],
  ['!=', Tok.NotEquals],
  ['notin', Tok.NotIn],
  ['(', Tok.OpenPar],
]);
const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

const isWhitespace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSpecial = (c: string) => c === '=' || c === '!' || c === '(' || c === ')' || c === ',' || c === '>' || c === '<';

/** The lexer: the whole input as [token, literal] pairs, ending with End. */
function scan(s: string): [Tok, string][] {
  // Go reads bytes; a multi-byte character is never special, so code units behave alike
  let pos = 0;
  const read = () => (pos < s.length ? s[pos++] : '');
  const out: [Tok, string][] = [];
  for (;;) {
    let ch = read();
    while (ch !== '' && isWhitespace(ch)) ch = read();
    if (ch === '') {
      out.push([Tok.End, '']);
      return out;
    }
    pos--;
    if (isSpecial(ch)) {
      let buf = '';
      let last: [Tok, string] | null = null;
      for (;;) {
        const c = read();
        if (c === '') break;
        if (!isSpecial(c)) {
          pos--;
          break;
        }
        buf += c;
        const t = STRING_TO_TOKEN.get(buf);
        if (t !== undefined) last = [t, buf];
        else if (last) {
          pos--;
          break;
        }
      }
      out.push(last ?? [Tok.Error, `error expected: keyword found '${buf}'`]);
    } else {
      let buf = '';
      for (;;) {
        const c = read();
        if (c === '') break;
        if (isSpecial(c) || isWhitespace(c)) {
          pos--;
          break;
        }
        buf += c;
      }
      out.push([STRING_TO_TOKEN.get(buf) ?? Tok.Identifier, buf]);
    }
  }
}

/** field.Error.Error() of an Invalid value (a string or a []string). */
function invalid(path: string, value: string | string[], detail: string): string {
  const v = typeof value === 'string' ? JSON.stringify(value) : `[]string{${value.map((x) => JSON.stringify(x)).join(', ')}}`;
  return `${path}: Invalid value: ${v}: ${detail}`;
}

/** errors.ToAggregate().Error(): one message, or `[a, b]`. */
function aggregate(errs: string[]): string {
  return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
}

/** NewRequirement's validation (the path is nil in a server-side parse: fields print `<nil>`, `key`, `values[0]`, `[key]`). */
function newRequirement(key: string, op: Operator, values: string[]): Requirement {
  const errs: string[] = [];
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length) errs.push(invalid('key', key, keyErrs.join('; ')));
  if ((op === 'in' || op === 'notin') && values.length === 0)
    errs.push(invalid('values', values, "for 'in', 'notin' operators, values set can't be empty"));
  if ((op === '=' || op === '==' || op === '!=') && values.length !== 1)
    errs.push(invalid('values', values, 'exact-match compatibility requires one single value'));
  if ((op === 'exists' || op === '!') && values.length !== 0)
    errs.push(invalid('values', values, 'values set must be empty for exists and does not exist'));
  if (op === 'gt' || op === 'lt') {
    if (values.length !== 1) errs.push(invalid('values', values, "for 'Gt', 'Lt' operators, exactly one value is required"));
    values.forEach((v, i) => {
      if (!/^[+-]?\d+$/.test(v) || !Number.isSafeInteger(Number(v)))
        errs.push(invalid(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
    });
  }
  values.forEach((v) => {
    const e = isValidLabelValue(v);
    if (e.length) errs.push(invalid(`[${key}]`, v, e.join('; ')));
  });
  if (errs.length) throw new SelectorParseError(aggregate(errs));
  return { key, op, values };
}

/**
 * labels.Parse: the requirements of `selector`, sorted by key (sort.Sort(ByKey): not stable,
 * equal keys keep their order here). @throws SelectorParseError with selector.go's message.
 */
export function parseRequirements(selector: string): Requirement[] {
  const items = scan(selector);
  let position = 0;
  // lookahead/consume in the Values context: `in` and `notin` are identifiers there
  const asValue = (t: Tok) => (t === Tok.In || t === Tok.NotIn ? Tok.Identifier : t);
  const lookahead = (values = true): [Tok, string] => {
    const [t, l] = items[position];
    return [values ? asValue(t) : t, l];
  };
  const consume = (values = true): [Tok, string] => {
    const [t, l] = items[position++];
    return [values ? asValue(t) : t, l];
  };

  const parseKeyAndInferOperator = (): [string, Operator | ''] => {
    let op: Operator | '' = '';
    let [tok, lit] = consume();
    if (tok === Tok.DoesNotExist) {
      op = '!';
      [tok, lit] = consume();
    }
    if (tok !== Tok.Identifier) throw new SelectorParseError(`found '${lit}', expected: identifier`);
    const keyErrs = isQualifiedName(lit);
    if (keyErrs.length) throw new SelectorParseError(invalid('<nil>', lit, keyErrs.join('; ')));
    const [t] = lookahead();
    if ((t === Tok.End || t === Tok.Comma) && op !== '!') op = 'exists';
    return [lit, op];
  };
  const parseOperator = (): Operator => {
    const [tok, lit] = consume(false);
    switch (tok) {
      case Tok.In:
        return 'in';
      case Tok.Equals:
        return '=';
      case Tok.DoubleEquals:
        return '==';
      case Tok.GreaterThan:
        return 'gt';
      case Tok.LessThan:
        return 'lt';
      case Tok.NotIn:
        return 'notin';
      case Tok.NotEquals:
        return '!=';
      default:
        throw new SelectorParseError(`found '${lit}', expected: ${BINARY_OPERATORS}`);
    }
  };
  const parseIdentifiersList = (): Set<string> => {
    const s = new Set<string>();
    for (;;) {
      const [tok, lit] = consume();
      if (tok === Tok.Identifier) {
        s.add(lit);
        const [t2, l2] = lookahead();
        if (t2 === Tok.Comma) continue;
        if (t2 === Tok.ClosedPar) return s;
        throw new SelectorParseError(`found '${l2}', expected: ',' or ')'`);
      } else if (tok === Tok.Comma) {
        if (s.size === 0) s.add('');
        const [t2] = lookahead();
        if (t2 === Tok.ClosedPar) {
          s.add('');
          return s;
        }
        if (t2 === Tok.Comma) s.add('');
      } else throw new SelectorParseError(`found '${lit}', expected: ',', or identifier`);
    }
  };
  const parseValues = (): Set<string> => {
    let [tok, lit] = consume();
    if (tok !== Tok.OpenPar) throw new SelectorParseError(`found '${lit}' expected: '('`);
    [tok, lit] = lookahead();
    if (tok === Tok.Identifier || tok === Tok.Comma) {
      const s = parseIdentifiersList();
      if (consume()[0] !== Tok.ClosedPar) throw new SelectorParseError(`found '${lit}', expected: ')'`);
      return s;
    }
    if (tok === Tok.ClosedPar) {
      consume();
      return new Set(['']);
    }
    throw new SelectorParseError(`found '${lit}', expected: ',', ')' or identifier`);
  };
  const parseExactValue = (): Set<string> => {
    const [t] = lookahead();
    if (t === Tok.End || t === Tok.Comma) return new Set(['']);
    const [tok, lit] = consume();
    if (tok === Tok.Identifier) return new Set([lit]);
    throw new SelectorParseError(`found '${lit}', expected: identifier`);
  };
  const parseRequirement = (): Requirement => {
    const [key, inferred] = parseKeyAndInferOperator();
    if (inferred === 'exists' || inferred === '!') return newRequirement(key, inferred, []);
    const op = parseOperator();
    const values = op === 'in' || op === 'notin' ? parseValues() : parseExactValue();
    // sets.String.List(): sorted
    return newRequirement(key, op, [...values].sort());
  };

  const reqs: Requirement[] = [];
  for (;;) {
    const [tok, lit] = lookahead();
    if (tok === Tok.Identifier || tok === Tok.DoesNotExist) {
      let r: Requirement;
      try {
        r = parseRequirement();
      } catch (e) {
        if (e instanceof SelectorParseError) throw new SelectorParseError(`unable to parse requirement: ${e.message}`);
        throw e;
      }
      reqs.push(r);
      const [t, l] = consume();
      if (t === Tok.End) break;
      if (t === Tok.Comma) {
        const [t2, l2] = lookahead();
        if (t2 !== Tok.Identifier && t2 !== Tok.DoesNotExist) throw new SelectorParseError(`found '${l2}', expected: identifier after ','`);
      } else throw new SelectorParseError(`found '${l}', expected: ',' or 'end of string'`);
    } else if (tok === Tok.End) break;
    else throw new SelectorParseError(`found '${lit}', expected: !, identifier, or 'end of string'`);
  }
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

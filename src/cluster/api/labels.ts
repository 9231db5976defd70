/**
 * Label selectors: parsing the string form (`app=web,tier!=db,env in (a,b),!beta`) and
 * matching, as k8s.io/apimachinery/pkg/labels/selector.go does, plus conversion of
 * metav1.LabelSelector (matchLabels + matchExpressions) as metav1.LabelSelectorAsSelector.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { parseRequirements, type Requirement } from './selector-parser';

/** The parser's requirement types, re-exported from selector-parser.ts where they are defined. */
export type { Operator, Requirement } from './selector-parser';

/** A parsed selector: all requirements must hold. Empty matches everything. */
export interface Selector {
  requirements: Requirement[];
  /** true for labels.Nothing(): matches no object (a nil metav1.LabelSelector). */
  nothing?: boolean;
}

export const everything: Selector = { requirements: [] };
export const nothing: Selector = { requirements: [], nothing: true };

/** True when the labels satisfy the selector. */
export function matches(sel: Selector, labels: Record<string, string> | undefined): boolean {
  if (sel.nothing) return false;
  const l = labels ?? {};
  for (const r of sel.requirements) {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const v = l[r.key];
    switch (r.op) {
      case '=':
      case '==':
      case 'in':
        if (!has || !r.values.includes(v)) return false;
        break;
      case '!=':
      case 'notin':
        if (has && r.values.includes(v)) return false;
        break;
      case 'exists':
        if (!has) return false;
        break;
      case '!':
        if (has) return false;
        break;
      case 'gt':
      case 'lt': {
        if (!has) return false;
        const n = Number(v);
        const m = Number(r.values[0]);
        if (!Number.isInteger(n) || (r.op === 'gt' ? !(n > m) : !(n < m))) return false;
        break;
      }
    }
  }
  return true;
}

/**
 * metav1.LabelSelectorAsSelector: nil → nothing, empty → everything.
 * Throws Error with the upstream message for an unknown operator.
 */
export function fromLabelSelector(ls: LabelSelector | null | undefined): Selector {
  if (!ls) return nothing;
  const reqs: Requirement[] = [];
  for (const k of Object.keys(ls.matchLabels ?? {}).sort()) {
    reqs.push({ key: k, op: '=', values: [ls.matchLabels![k]] });
  }
  for (const e of ls.matchExpressions ?? []) {
    const op = e.operator;
    switch (op) {
      case 'In':
        reqs.push({ key: e.key, op: 'in', values: [...(e.values ?? [])] });
        break;
      case 'NotIn':
        reqs.push({ key: e.key, op: 'notin', values: [...(e.values ?? [])] });
        break;
      case 'Exists':
        reqs.push({ key: e.key, op: 'exists', values: [] });
        break;
      case 'DoesNotExist':
        reqs.push({ key: e.key, op: '!', values: [] });
        break;
      default:
        throw new Error(`"${op}" is not a valid label selector operator`);
    }
  }
  return { requirements: reqs };
}

/** True when a metav1.LabelSelector selects the labels (nil selects nothing). */
export function labelSelectorMatches(ls: LabelSelector | null | undefined, labels: Record<string, string> | undefined): boolean {
  return matches(fromLabelSelector(ls), labels);
}

/**
 * Whether a metav1.LabelSelector converts and does not select the labels, as validation
 * checks a template (`selector, err := LabelSelectorAsSelector(sel); err == nil &&
 * !selector.Matches(labels)`): a selector with an invalid operator is reported by its own
 * validation, never here (and never thrown).
 */
export function labelSelectorMismatch(ls: LabelSelector | null | undefined, labels: Record<string, string> | undefined): boolean {
  let sel: Selector;
  try {
    sel = fromLabelSelector(ls);
  } catch {
    return false;
  }
  return !matches(sel, labels);
}

/**
 * Parses the string form used by `kubectl -l` and `?labelSelector=`.
 * @throws SelectorParseError (selector-parser.ts) with selector.go's text, e.g.
 * `unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt`.
 */
export function parseSelector(text: string): Selector {
  if (!text.trim()) return everything;
  return { requirements: parseRequirements(text) };
}

/** The string form of a selector (labels.Selector.String), e.g. `app=web,tier in (a,b)`. */
export function selectorString(sel: Selector): string {
  return sel.requirements
    .map((r) => {
      switch (r.op) {
        case 'in':
        case 'notin':
          return `${r.key} ${r.op} (${r.values.join(',')})`;
        case 'exists':
          return r.key;
        case '!':
          return `!${r.key}`;
        case 'gt':
          return `${r.key}>${r.values[0]}`;
        case 'lt':
          return `${r.key}<${r.values[0]}`;
        default:
          return `${r.key}${r.op}${r.values[0]}`;
      }
    })
    .join(',');
}

/** metav1.FormatLabelSelector: the string form of a metav1.LabelSelector, "<none>" when empty. */
export function formatLabelSelector(ls: LabelSelector | null | undefined): string {
  if (!ls) return '<none>';
  const s = selectorString(fromLabelSelector(ls));
  return s === '' ? '<none>' : s;
}

/**
 * Static worst-case cost of a checked expression, as cel-go's estimator
 * computes it with the Kubernetes size estimator and library costs: every
 * node gets a cost range and, for strings, bytes, lists and maps, a size
 * range. Sizes of data come from the declared types along the access path
 * (`self.spec.items.@items.name`): maxItems, maxLength, maxProperties, or the
 * worst case a request of the maximum size allows. Comprehensions cost their
 * body times the size of their range, so nesting multiplies.
 */

import {
  LIST_CREATE_BASE_COST,
  MAP_CREATE_BASE_COST,
  AUTHZ_CHECK_COST,
  REGEX_STRING_LENGTH_COST_FACTOR as REGEX,
  STRING_TRAVERSAL_COST_FACTOR as TRAVERSE,
} from './cost';
import { callArgs, callName, callReceiver, type LibType, type Node } from './engine';
import type { DeclType } from './types';
import { codePointLength } from './values';

export interface Range {
  min: number;
  max: number;
}

const MAX = 2 ** 64 - 1; // cel-go's math.MaxUint64 (as a double): unknown or saturated
const UNKNOWN: Range = { min: 0, max: MAX };
const add = (a: number, b: number): number => Math.min(MAX, a + b);
const mul = (a: number, b: number): number => (a === 0 || b === 0 ? 0 : Math.min(MAX, a * b));
const scale = (x: number, f: number): number => (x === 0 ? 0 : Math.min(MAX, Math.ceil(x * f)));
const fixed = (n: number): Range => ({ min: n, max: n });
const plus = (a: Range, b: Range): Range => ({ min: add(a.min, b.min), max: add(a.max, b.max) });
const times = (a: Range, b: Range): Range => ({ min: mul(a.min, b.min), max: mul(a.max, b.max) });
const factor = (a: Range, f: number): Range => ({ min: scale(a.min, f), max: scale(a.max, f) });
const union = (a: Range, b: Range): Range => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) });

interface Info {
  cost: Range;
  size?: Range;
  path?: string[];
  /** Sizes of list elements (or map values), when the expression spells them out. */
  elemSize?: Range;
}

interface Local {
  path?: string[];
  size?: Range;
}

/** Roots of access paths: variable name to its declared type. */
export type SizeRoots = ReadonlyMap<string, DeclType>;

export function estimateCost(root: Node, roots: SizeRoots, listCreateCost = LIST_CREATE_BASE_COST): Range {
  return new Estimator(roots, listCreateCost).estimate(root, new Map()).cost;
}

class Estimator {
  constructor(
    private readonly roots: SizeRoots,
    private readonly listCreate: number,
  ) {}

  estimate(node: Node, scope: Map<string, Local>): Info {
    const meta = node.meta;
    if (meta.alternate?.op === 'comprehension') return this.comprehension(node, scope);
    if (meta.alternate !== undefined) return { cost: fixed(1), size: fixed(1) };
    switch (node.op) {
      case 'value':
        return { cost: fixed(0), size: fixed(literalSize(node.args)) };
      case 'id':
        return this.ident(node, scope);
      case '.': {
        const [operand, field] = node.args as [Node, string];
        const o = this.estimate(operand, scope);
        return this.sized(node, {
          cost: plus(o.cost, fixed(1)),
          ...(o.path !== undefined ? { path: [...o.path, field] } : {}),
        });
      }
      case '[]': {
        const [container, key] = node.args as [Node, Node];
        const c = this.estimate(container, scope);
        const k = this.estimate(key, scope);
        const step = container.checkedType?.kind === 'map' ? '@values' : '@items';
        const info: Info = {
          cost: plus(plus(c.cost, k.cost), fixed(1)),
          ...(c.path !== undefined ? { path: [...c.path, step] } : {}),
        };
        if (c.elemSize !== undefined) info.size = c.elemSize;
        return this.sized(node, info);
      }
      case 'list': {
        const items = (node.args as Node[]).map((n) => this.estimate(n, scope));
        const cost = items.reduce((sum, i) => plus(sum, i.cost), fixed(this.listCreate));
        const elemSize = items.length === 0 ? fixed(0) : items.map((i) => this.sizeOf(i)).reduce(union);
        return { cost, size: fixed(items.length), elemSize };
      }
      case 'map': {
        const entries = node.args as [Node, Node][];
        let cost = fixed(MAP_CREATE_BASE_COST);
        for (const [k, v] of entries)
          cost = plus(cost, plus(this.estimate(k, scope).cost, this.estimate(v, scope).cost));
        return { cost, size: fixed(entries.length) };
      }
      case '?:': {
        const [c, t, f] = (node.args as Node[]).map((n) => this.estimate(n, scope)) as [Info, Info, Info];
        return { cost: plus(c.cost, union(t.cost, f.cost)), size: union(this.sizeOf(t), this.sizeOf(f)) };
      }
      case '&&':
      case '||': {
        const [l, r] = (node.args as Node[]).map((n) => this.estimate(n, scope)) as [Info, Info];
        return { cost: { min: l.cost.min, max: add(l.cost.max, r.cost.max) } };
      }
      case '!_':
      case '-_':
        return { cost: plus(this.estimate(node.args as Node, scope).cost, fixed(1)), size: fixed(1) };
      case 'call':
      case 'rcall':
        return meta.macro !== undefined ? this.has(node, scope) : this.call(node, scope);
      default:
        return this.operator(node, scope);
    }
  }

  private ident(node: Node, scope: Map<string, Local>): Info {
    const name = node.args as string;
    const local = scope.get(name);
    if (local !== undefined)
      return this.sized(node, {
        cost: fixed(1),
        ...(local.path !== undefined ? { path: local.path } : {}),
        ...(local.size !== undefined ? { size: local.size } : {}),
      });
    return this.sized(node, { cost: fixed(1), ...(this.roots.has(name) ? { path: [name] } : {}) });
  }

  /** Fills in the size from the declared type at the node's path, or 1 for scalars. */
  private sized(node: Node, info: Info): Info {
    if (info.size === undefined && info.path !== undefined) {
      const size = this.sizeAt(info.path);
      if (size !== undefined) info.size = size;
    }
    if (info.size === undefined && isScalar(node.checkedType)) info.size = fixed(1);
    return info;
  }

  private sizeAt(path: string[]): Range | undefined {
    let t = this.roots.get(path[0]!);
    for (const step of path.slice(1)) {
      if (t === undefined) return undefined;
      // Whatever lies under dynamic data is dynamic too, bounded as the data is (see dynamic.ts).
      if (t.kind === 'dyn') break;
      if (step === '@items' || step === '@values') t = t.elem;
      else if (step === '@keys')
        return fixed(0); // map keys are declared without a length bound (Kubernetes sizes them 0)
      else t = t.fields?.get(step)?.type;
    }
    if (t === undefined) return undefined;
    // Scalars have size 1 (so a comparison costs the spec's 1 unit); objects have no size.
    if (
      t.kind === 'int' ||
      t.kind === 'double' ||
      t.kind === 'bool' ||
      t.kind === 'timestamp' ||
      t.kind === 'duration'
    )
      return undefined;
    return { min: 0, max: t.maxElements };
  }

  private sizeOf(info: Info): Range {
    return info.size ?? UNKNOWN;
  }

  private has(node: Node, scope: Map<string, Local>): Info {
    const select = callArgs(node)[0]!;
    const operand = select.op === '.' ? (select.args as [Node, string])[0] : select;
    return { cost: plus(this.estimate(operand, scope).cost, fixed(1)), size: fixed(1) };
  }

  private comprehension(node: Node, scope: Map<string, Local>): Info {
    const macro = callName(node);
    const range = this.estimate(callReceiver(node)!, scope);
    const [iterVar, first, second] = callArgs(node) as [Node, Node, Node | undefined];
    const rangeType = callReceiver(node)!.checkedType;
    const step = rangeType?.kind === 'map' ? '@keys' : '@items';
    const local: Local = {};
    if (range.path !== undefined) local.path = [...range.path, step];
    const elemSize =
      range.elemSize ??
      (local.path !== undefined ? this.sizeAt(local.path) : undefined) ??
      (isScalar(rangeType?.kind === 'map' ? rangeType.keyType : rangeType?.valueType) ? fixed(1) : undefined);
    if (elemSize !== undefined) local.size = elemSize;
    const inner = new Map(scope).set(iterVar.args as string, local);
    const pred = this.estimate(first, inner).cost;
    const accuAppend = (value: Range): Range => plus(fixed(2 + this.listCreate), value); // accu + [value]
    let init = fixed(0);
    let loop: Range;
    let result = fixed(1);
    switch (macro) {
      case 'all':
        loop = plus(fixed(2), { min: 1, max: add(1, pred.max) });
        break;
      case 'exists':
        loop = plus(fixed(3), { min: 1, max: add(1, pred.max) });
        break;
      case 'exists_one':
        loop = plus(pred, { min: 1, max: 2 });
        result = fixed(2);
        break;
      case 'map':
        init = fixed(this.listCreate);
        loop =
          second === undefined
            ? accuAppend(pred)
            : plus(pred, union(accuAppend(this.estimate(second, inner).cost), fixed(1)));
        break;
      default: // filter
        init = fixed(this.listCreate);
        loop = plus(pred, union(accuAppend(fixed(1)), fixed(1)));
    }
    const rangeCount = range.size ?? UNKNOWN;
    const cost = plus(plus(plus(range.cost, init), times(rangeCount, loop)), result);
    return macro === 'map' || macro === 'filter' ? { cost, size: rangeCount } : { cost, size: fixed(1) };
  }

  private operator(node: Node, scope: Map<string, Local>): Info {
    const [leftNode, rightNode] = node.args as [Node, Node];
    const l = this.estimate(leftNode, scope);
    const r = this.estimate(rightNode, scope);
    const args = plus(l.cost, r.cost);
    const text = isText(leftNode.checkedType) && isText(rightNode.checkedType);
    switch (node.op) {
      case '==':
      case '!=':
        return { cost: plus(args, comparison(this.sizeOf(l), this.sizeOf(r))), size: fixed(1) };
      case '<':
      case '<=':
      case '>':
      case '>=':
        return {
          cost: plus(args, text ? comparison(this.sizeOf(l), this.sizeOf(r)) : fixed(1)),
          size: fixed(1),
        };
      case '+': {
        const size = plus(this.sizeOf(l), this.sizeOf(r));
        if (text) return { cost: plus(args, factor(size, TRAVERSE)), size };
        const isList = leftNode.checkedType?.kind === 'list';
        return { cost: plus(args, fixed(1)), ...(isList ? { size } : { size: fixed(1) }) };
      }
      case 'in':
        return {
          cost: plus(args, rightNode.checkedType?.kind === 'list' ? this.sizeOf(r) : fixed(1)),
          size: fixed(1),
        };
      default:
        return { cost: plus(args, fixed(1)), size: fixed(1) };
    }
  }

  private call(node: Node, scope: Map<string, Local>): Info {
    const name = callName(node);
    const receiverNode = callReceiver(node);
    const argNodes = callArgs(node);
    const target = receiverNode === undefined ? undefined : this.estimate(receiverNode, scope);
    const args = argNodes.map((a) => this.estimate(a, scope));
    let cost = args.reduce((sum, a) => plus(sum, a.cost), target?.cost ?? fixed(0));
    const size = (i: Info | undefined): Range => (i === undefined ? UNKNOWN : this.sizeOf(i));
    const fn = (c: Range, resultSize?: Range): Info => {
      cost = plus(cost, c);
      return this.sized(node, { cost, ...(resultSize !== undefined ? { size: resultSize } : {}) });
    };
    switch (name) {
      case 'dyn':
        return { ...args[0]!, cost: plus(cost, fixed(1)) };
      case 'startsWith':
      case 'endsWith':
        return fn(factor(size(args[0]), TRAVERSE));
      case 'contains':
        return fn(times(factor(size(target), TRAVERSE), factor(size(args[0]), TRAVERSE)));
      case 'matches': {
        const [s, re] = target !== undefined ? [target, args[0]] : [args[0], args[1]];
        return fn(times(factor(plus(size(s), fixed(1)), TRAVERSE), factor(size(re), REGEX)));
      }
      case 'find':
      case 'findAll':
        return fn(times(factor(plus(size(target), fixed(1)), TRAVERSE), factor(size(args[0]), REGEX)), {
          min: 0,
          max: size(target).max,
        });
      case 'isSorted':
      case 'sum':
      case 'max':
      case 'min':
      case 'indexOf':
      case 'lastIndexOf':
        if (receiverNode?.checkedType?.kind === 'list') {
          const elem = receiverNode.checkedType.valueType;
          const elemCost = isText(elem) ? plus(fixed(1), factor(this.elemSize(target!), TRAVERSE)) : fixed(1);
          return fn(times(size(target), elemCost));
        }
        return fn(factor(size(target), TRAVERSE));
      case 'url':
        return fn(factor(size(args[0]), TRAVERSE));
      case 'lowerAscii':
      case 'upperAscii':
      case 'substring':
      case 'trim':
        return fn(factor(size(target), TRAVERSE), size(target));
      case 'replace': {
        const sz = size(target);
        const from = size(args[0]);
        const to = size(args[1]);
        const max = from.min === 0 ? MAX : mul(Math.ceil(sz.max / from.min), to.max);
        return fn(factor(sz, 2 * TRAVERSE), { min: 0, max });
      }
      case 'split': {
        const sz = size(target);
        const limit = argNodes[1]?.op === 'value' ? Number(argNodes[1].args) : sz.max;
        return fn(factor(sz, 2 * TRAVERSE), { min: 0, max: limit });
      }
      case 'join': {
        const list = size(target);
        let sz = times(list, this.elemSize(target!));
        if (args[0] !== undefined)
          sz = plus(
            sz,
            times(size(args[0]), { min: Math.max(0, list.min - 1), max: Math.max(0, list.max - 1) }),
          );
        return fn(factor(sz, TRAVERSE), sz);
      }
      case 'string':
      case 'bytes': {
        const arg = argNodes[0]?.checkedType?.name;
        if ((name === 'string' && arg === 'bytes') || (name === 'bytes' && arg === 'string'))
          return fn(factor(size(args[0]), TRAVERSE), size(args[0]));
        return fn(fixed(1));
      }
      case 'check':
        return fn(fixed(AUTHZ_CHECK_COST));
      default:
        return fn(fixed(1));
    }
  }

  private elemSize(list: Info): Range {
    if (list.elemSize !== undefined) return list.elemSize;
    if (list.path !== undefined) return this.sizeAt([...list.path, '@items']) ?? UNKNOWN;
    return UNKNOWN;
  }
}

function comparison(l: Range, r: Range): Range {
  const smallestMax = Math.min(l.max, r.max);
  return factor({ min: smallestMax > 0 ? 1 : 0, max: smallestMax }, TRAVERSE);
}

function literalSize(value: unknown): number {
  if (typeof value === 'string') return codePointLength(value);
  if (value instanceof Uint8Array) return value.length;
  return 1;
}

function isText(t: LibType | undefined): boolean {
  return t?.name === 'string' || t?.name === 'bytes';
}

function isScalar(t: LibType | undefined): boolean {
  const n = t?.name;
  return (
    n === 'int' ||
    n === 'uint' ||
    n === 'double' ||
    n === 'bool' ||
    n === 'google.protobuf.Timestamp' ||
    n === 'google.protobuf.Duration'
  );
}

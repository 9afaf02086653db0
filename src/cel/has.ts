/**
 * Our `has()` macro, replacing the engine's (which accepts only chains that
 * start at a variable): `has(e.f)` tests whether field `f` is set on an
 * object or key `f` is present in a map, for any operand expression
 * (`has({'a': 1}.a)`), type-checks the field against object types, and
 * charges cel-go's presence-test cost.
 */

import { charge, SELECT_AND_IDENT_COST } from './cost';
import { celError } from './errors';
import {
  callArgs,
  type LibChecker,
  type LibContext,
  type LibEvaluator,
  type LibMacro,
  type LibType,
  type Node,
} from './engine';
import { isMapValue, isObjectValue } from './values';

interface HasMacro extends LibMacro {
  select: Node;
}

interface CheckerWithTypes extends LibChecker {
  objectTypes: Map<string, { fields?: Record<string, LibType> }>;
}

export function installHas(node: Node): void {
  const macro: HasMacro = { select: callArgs(node)[0]!, typeCheck, evaluate };
  node.setMeta('macro', macro);
}

function typeCheck(checker: LibChecker, m: LibMacro, ctx: LibContext): LibType {
  const select = (m as HasMacro).select;
  if (select.op !== '.')
    throw checker.createError('invalid_macro_argument', 'invalid argument to has() macro', select);
  const [operand, field] = select.args as [Node, string];
  const type = checker.check(operand, ctx);
  if (type.kind === 'message') {
    const fields = (checker as CheckerWithTypes).objectTypes.get(type.name)?.fields;
    if (fields !== undefined && fields[field] === undefined)
      throw checker.createError('no_such_key', `No such key: ${field}`, select);
  } else if (type.kind !== 'map' && type.kind !== 'dyn') {
    throw checker.createError(
      'invalid_select',
      `type '${type.name}' does not support field selection`,
      select,
    );
  }
  return checker.getType('bool');
}

function evaluate(ev: LibEvaluator, m: LibMacro, ctx: LibContext): boolean {
  const [operand, field] = (m as HasMacro).select.args as [Node, string];
  const value = ev.run(operand, ctx);
  charge(SELECT_AND_IDENT_COST);
  if (value instanceof Map) return value.has(field);
  if (isObjectValue(value) || isMapValue(value)) return Object.hasOwn(value, field);
  throw celError(`invalid type for field selection: ${ev.debugType(value).name}`);
}

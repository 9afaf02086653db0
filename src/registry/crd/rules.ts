/**
 * The CRD-time side of `x-orch-validations`: every rule (and its
 * `messageExpression`) is compiled and type-checked against the schema node
 * it sits on; compile errors reject the CRD naming the rule and the
 * position (`compilation failed: ERROR: <input>:1:6: ...`); each rule's
 * estimated worst-case cost, times how often it can run per object, must
 * stay within the per-rule limit and all of them within the per-CRD limit
 * (the message says what to bound: maxItems, maxProperties, maxLength);
 * transition rules (`oldSelf`) are refused where old and new values cannot
 * be correlated. The compiled rules are kept for the write path.
 */

import {
  STATIC_ESTIMATED_CRD_COST_LIMIT,
  childCardinality,
  compileRule,
  costExceededMessage,
  ruleCost,
  ruleCostErrors,
  type Cardinality,
  type CompiledRule,
} from '../../cel/index';
import { fieldError, type FieldError } from '../../machinery/field-errors';
import type { NamingProfile } from '../../machinery/naming';
import type { SchemaNode } from '../../machinery/schema';
import { child, goRule, index, key } from './paths';

export interface RuleCompilation {
  errors: FieldError[];
  compiled: Map<SchemaNode, CompiledRule[]>;
}

interface Walk {
  profile: NamingProfile;
  out: RuleCompilation;
  total: number;
  costs: { path: string; cost: number }[];
}

const MOST_EXPENSIVE = 4;

function visit(
  w: Walk,
  node: SchemaNode,
  path: string,
  cardinality: Cardinality,
  uncorrelatable: string | undefined,
  resourceRoot: boolean,
): void {
  const ext = w.profile.ext('validations');
  const compiledHere: CompiledRule[] = [];
  (node.validations ?? []).forEach((rule, i) => {
    if (rule.rule.trim() === '') return;
    const rulePath = child(index(child(path, ext), i), 'rule');
    const messagePath = child(index(child(path, ext), i), 'messageExpression');
    const result = compileRule(node, rule, { isResourceRoot: resourceRoot });
    if (Array.isArray(result)) {
      for (const e of result)
        w.out.errors.push(
          fieldError.invalid(e.field === 'rule' ? rulePath : messagePath, goRule(rule), e.detail),
        );
      return;
    }
    compiledHere.push(result);
    for (const [field, message] of ruleCostErrors(result, cardinality))
      w.out.errors.push(fieldError.forbidden(field === 'rule' ? rulePath : messagePath, message));
    const cost = ruleCost(result, cardinality);
    w.total += cost + result.messageExpressionMaxCost;
    w.costs.push({ path: rulePath, cost });
    if (result.messageExpression !== undefined)
      w.costs.push({ path: messagePath, cost: result.messageExpressionMaxCost });
    if (result.usesOldSelf && uncorrelatable !== undefined)
      w.out.errors.push(
        fieldError.invalid(
          rulePath,
          rule.rule,
          `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`,
        ),
      );
  });
  if (compiledHere.length > 0) w.out.compiled.set(node, compiledHere);

  const below = childCardinality(cardinality, node);
  const structOld = node.mapType === 'atomic' ? (uncorrelatable ?? path) : uncorrelatable;
  for (const [name, prop] of Object.entries(node.properties ?? {}))
    visit(w, prop, key(child(path, 'properties'), name), below, structOld, prop.embeddedResource === true);
  if (typeof node.additionalProperties === 'object')
    visit(
      w,
      node.additionalProperties,
      child(path, 'additionalProperties'),
      below,
      uncorrelatable,
      node.additionalProperties.embeddedResource === true,
    );
  if (node.items !== undefined)
    visit(
      w,
      node.items,
      child(path, 'items'),
      below,
      node.listType === 'map' ? uncorrelatable : (uncorrelatable ?? path),
      node.items.embeddedResource === true,
    );
}

/** Compiles every rule of a version's schema (`path` is the schema's field path in the CRD). */
export function compileSchemaRules(profile: NamingProfile, root: SchemaNode, path: string): RuleCompilation {
  const w: Walk = { profile, out: { errors: [], compiled: new Map() }, total: 0, costs: [] };
  visit(w, root, path, 1, undefined, true);
  if (w.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    const expensive = [...w.costs].sort((a, b) => b.cost - a.cost).slice(0, MOST_EXPENSIVE);
    for (const e of expensive)
      w.out.errors.push(
        fieldError.forbidden(
          e.path,
          'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
        ),
      );
    w.out.errors.push(
      fieldError.forbidden(
        path,
        costExceededMessage(
          `${profile.ext('validations')} estimated rule cost total for entire OpenAPIv3 schema`,
          w.total,
          STATIC_ESTIMATED_CRD_COST_LIMIT,
        ),
      ),
    );
  }
  return w.out;
}

/**
 * SelfSubjectRulesReview: the rules the requester holds in one namespace,
 * as the authorizer enumerates them — what `kubectl auth can-i --list`
 * prints. The answer is a fresh object (the real server echoes neither the
 * metadata nor the spec), with `incomplete` set when the authorizer cannot
 * enumerate everything it would allow.
 */

import type { JsonObject, KubeObject } from '../../../../api/meta';
import type { Authorizer, NonResourceRule, ResourceRule } from '../../../../auth/authorizer';
import { badRequest } from '../../../../machinery/errors';
import type { Creater, RestStorage, WriteOptions } from '../../../rest/capabilities';
import type { RequestScope } from '../../../rest/scope';
import type { ResourceType } from '../../../resource-type';
import { putIfSet, record, reviewObject, str } from '../review';

function resourceRuleJson(rule: ResourceRule): JsonObject {
  // `verbs` is the one field the real encoder always writes.
  const out: JsonObject = { verbs: [...rule.verbs] };
  putIfSet(out, 'apiGroups', rule.apiGroups);
  putIfSet(out, 'resources', rule.resources);
  putIfSet(out, 'resourceNames', rule.resourceNames);
  return out;
}

function nonResourceRuleJson(rule: NonResourceRule): JsonObject {
  const out: JsonObject = { verbs: [...rule.verbs] };
  putIfSet(out, 'nonResourceURLs', rule.nonResourceURLs);
  return out;
}

export class SelfSubjectRulesReviewStorage implements Creater, RestStorage {
  constructor(
    private readonly rt: ResourceType,
    private readonly authorizer: Authorizer,
  ) {}

  async create(scope: RequestScope, object: KubeObject, _options: WriteOptions): Promise<KubeObject> {
    const namespace = str(record(object, 'spec'), 'namespace');
    if (namespace === '') throw badRequest('no namespace on request');

    const rules = await this.authorizer.rulesFor(scope.user, namespace);
    const status: JsonObject = {
      resourceRules: rules.resourceRules.map(resourceRuleJson),
      nonResourceRules: rules.nonResourceRules.map(nonResourceRuleJson),
      incomplete: rules.incomplete,
    };
    putIfSet(status, 'evaluationError', rules.evaluationError ?? '');
    return reviewObject(this.rt, { creationTimestamp: null }, { spec: {}, status });
  }
}

/**
 * LocalSubjectAccessReview: a SubjectAccessReview confined to the namespace
 * it is posted in, so that namespace administrators may be granted it
 * without learning about other namespaces. Besides the SubjectAccessReview
 * rules, the metadata may hold only the namespace, the attributes must name
 * that namespace, and non-resource attributes are refused.
 */

import type { KubeObject } from '../../../../api/meta';
import type { Authorizer } from '../../../../auth/authorizer';
import { badRequest } from '../../../../machinery/errors';
import { fieldError, GoValueText } from '../../../../machinery/field-errors';
import type { Creater, RestStorage, WriteOptions } from '../../../rest/capabilities';
import type { RequestScope } from '../../../rest/scope';
import type { ResourceType } from '../../../resource-type';
import {
  attributesOf,
  goNonResourceAttributes,
  readSpec,
  specJson,
  statusOf,
  subjectOf,
  validateSpec,
} from '../access-review';
import {
  echoedMetadata,
  goObjectMeta,
  invalidReview,
  metadataIsEmpty,
  record,
  reviewObject,
  str,
} from '../review';

export class LocalSubjectAccessReviewStorage implements Creater, RestStorage {
  constructor(
    private readonly rt: ResourceType,
    private readonly authorizer: Authorizer,
  ) {}

  async create(scope: RequestScope, object: KubeObject, _options: WriteOptions): Promise<KubeObject> {
    const spec = readSpec(object);
    const namespace = str(record(object, 'metadata'), 'namespace');
    const errors = validateSpec(spec, true);
    if (!metadataIsEmpty(object.metadata, true))
      errors.push(
        fieldError.invalid(
          'metadata',
          new GoValueText(goObjectMeta(object.metadata)),
          'must be empty except for namespace',
        ),
      );
    if (spec.resourceAttributes !== undefined && spec.resourceAttributes.namespace !== namespace)
      errors.push(
        fieldError.invalid(
          'spec.resourceAttributes.namespace',
          spec.resourceAttributes.namespace,
          'must match metadata.namespace',
        ),
      );
    if (spec.nonResourceAttributes !== undefined)
      errors.push(
        fieldError.invalid(
          'spec.nonResourceAttributes',
          goNonResourceAttributes(spec.nonResourceAttributes),
          'disallowed on this kind of request',
        ),
      );
    if (errors.length > 0) throw invalidReview(this.rt, errors);

    // The HTTP layer fills metadata.namespace from the path and refuses a
    // different one, so these guard only callers that bypass it.
    if (scope.namespace === '') throw badRequest('namespace is required on this type: ');
    if (scope.namespace !== namespace)
      throw badRequest(`spec.resourceAttributes.namespace must match namespace: ${scope.namespace}`);

    const result = await this.authorizer.authorize(attributesOf(subjectOf(spec), spec));
    return reviewObject(this.rt, echoedMetadata(object.metadata), {
      spec: specJson(spec, true),
      status: statusOf(result),
    });
  }
}

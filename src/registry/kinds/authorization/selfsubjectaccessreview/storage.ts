/**
 * SelfSubjectAccessReview: may the requester do this? The authorizer is
 * asked with the identity of the request itself (after impersonation), and
 * the answer echoes the spec with the decision. Nothing is stored.
 */

import type { KubeObject } from '../../../../api/meta';
import type { Authorizer } from '../../../../auth/authorizer';
import { fieldError, GoValueText } from '../../../../machinery/field-errors';
import type { Creater, RestStorage, WriteOptions } from '../../../rest/capabilities';
import type { RequestScope } from '../../../rest/scope';
import type { ResourceType } from '../../../resource-type';
import { attributesOf, readSpec, specJson, statusOf, validateSpec } from '../access-review';
import { echoedMetadata, goObjectMeta, invalidReview, metadataIsEmpty, reviewObject } from '../review';

export class SelfSubjectAccessReviewStorage implements Creater, RestStorage {
  constructor(
    private readonly rt: ResourceType,
    private readonly authorizer: Authorizer,
  ) {}

  async create(scope: RequestScope, object: KubeObject, _options: WriteOptions): Promise<KubeObject> {
    const spec = readSpec(object);
    const errors = validateSpec(spec, false);
    if (!metadataIsEmpty(object.metadata, false))
      errors.push(
        fieldError.invalid('metadata', new GoValueText(goObjectMeta(object.metadata)), 'must be empty'),
      );
    if (errors.length > 0) throw invalidReview(this.rt, errors);

    const result = await this.authorizer.authorize(attributesOf(scope.user, spec));
    return reviewObject(this.rt, echoedMetadata(object.metadata), {
      spec: specJson(spec, false),
      status: statusOf(result),
    });
  }
}

/**
 * SubjectAccessReview: asks the authorizer whether the user and groups in
 * the spec may do what its attributes describe, and answers with the spec
 * and the decision. Nothing is stored, so the storage is only a Creater:
 * the collection answers 405 to reads and discovery lists `create` alone.
 */

import type { KubeObject } from '../../../../api/meta';
import type { Authorizer } from '../../../../auth/authorizer';
import type { Creater, RestStorage, WriteOptions } from '../../../rest/capabilities';
import type { RequestScope } from '../../../rest/scope';
import type { ResourceType } from '../../../resource-type';
import { attributesOf, readSpec, specJson, statusOf, subjectOf, validateSpec } from '../access-review';
import { echoedMetadata, goObjectMeta, invalidReview, metadataIsEmpty, reviewObject } from '../review';
import { fieldError, GoValueText } from '../../../../machinery/field-errors';

export class SubjectAccessReviewStorage implements Creater, RestStorage {
  constructor(
    private readonly rt: ResourceType,
    private readonly authorizer: Authorizer,
  ) {}

  async create(_scope: RequestScope, object: KubeObject, _options: WriteOptions): Promise<KubeObject> {
    const spec = readSpec(object);
    const errors = validateSpec(spec, true);
    if (!metadataIsEmpty(object.metadata, false))
      errors.push(
        fieldError.invalid('metadata', new GoValueText(goObjectMeta(object.metadata)), 'must be empty'),
      );
    if (errors.length > 0) throw invalidReview(this.rt, errors);

    const result = await this.authorizer.authorize(attributesOf(subjectOf(spec), spec));
    return reviewObject(this.rt, echoedMetadata(object.metadata), {
      spec: specJson(spec, true),
      status: statusOf(result),
    });
  }
}

/**
 * SelfSubjectReview: who am I? Answers with the requester's identity as
 * authentication (and impersonation) established it — what `kubectl auth
 * whoami` prints. The answer is a fresh object stamped with the time of the
 * request; nothing sent in the body is echoed, as on the real server.
 */

import type { KubeObject } from '../../../../api/meta';
import type { Creater, RestStorage, WriteOptions } from '../../../rest/capabilities';
import type { RequestScope } from '../../../rest/scope';
import type { ResourceType } from '../../../resource-type';
import { reviewObject } from '../../authorization/review';
import { userInfoJson } from '../user-info';

/** RFC 3339 to the second, the precision of metav1.Time. */
function timestamp(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class SelfSubjectReviewStorage implements Creater, RestStorage {
  constructor(private readonly rt: ResourceType) {}

  async create(scope: RequestScope, _object: KubeObject, _options: WriteOptions): Promise<KubeObject> {
    return reviewObject(
      this.rt,
      { creationTimestamp: timestamp(scope.now) },
      { status: { userInfo: userInfoJson(scope.user) } },
    );
  }
}

/**
 * A read that tells a missing object from a failure: the object, or undefined
 * when the server answers 404 (for scenarios that wait for a collector or a
 * controller to remove something). Any other error is the test's failure.
 */

import type { KubeObject } from '../../src/api/meta';
import type { ApiClient } from '../../src/client/client';
import { ApiError } from '../../src/client/errors';
import type { ResourceRef } from '../../src/client/index';

export async function present(
  client: ApiClient,
  ref: ResourceRef,
  name: string,
): Promise<KubeObject | undefined> {
  try {
    return await client.get({ ...ref, name });
  } catch (e) {
    if (e instanceof ApiError && e.code === 404) return undefined;
    throw e;
  }
}

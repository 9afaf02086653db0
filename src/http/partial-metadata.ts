/**
 * PartialObjectMetadata: an object reduced to its metadata, as a client
 * asking for `as=PartialObjectMetadata` (or a Table row with
 * `includeObject=Metadata`) receives it.
 */

import type { KubeObject } from '../api/meta';
import type { NamingProfile } from '../machinery/naming';

export function partialObjectMetadata(
  profile: NamingProfile,
  metaVersion: string,
  obj: KubeObject,
): KubeObject {
  return {
    kind: 'PartialObjectMetadata',
    apiVersion: `${profile.metaGroup}/${metaVersion}`,
    metadata: obj.metadata ?? {},
  };
}

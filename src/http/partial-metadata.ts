/**
 * PartialObjectMetadata: an object reduced to its metadata, as a client
 * asking for `as=PartialObjectMetadata` (or a Table row with
 * `includeObject=Metadata`) receives it.
 */

import type { KubeObject } from '../api/meta';
import { StatusError } from '../machinery/errors';
import type { NamingProfile } from '../machinery/naming';
import type { ResourceType } from '../registry/resource-type';

export function partialObjectMetadata(
  profile: NamingProfile,
  metaVersion: string,
  obj: KubeObject,
  withoutManagedFields = false,
): KubeObject {
  const metadata = obj.metadata ?? {};
  return {
    kind: 'PartialObjectMetadata',
    apiVersion: `${profile.metaGroup}/${metaVersion}`,
    metadata: withoutManagedFields ? trimmed(metadata) : metadata,
  };
}

/** Metadata without its managedFields (a shallow copy; the stored metadata is never changed). */
function trimmed(metadata: NonNullable<KubeObject['metadata']>): NonNullable<KubeObject['metadata']> {
  if (metadata.managedFields === undefined) return metadata;
  const { managedFields: _dropped, ...rest } = metadata;
  return rest;
}

/**
 * The Go type the real server names in its 406 for a metadata request of
 * the wrong shape (`%T` of the internal object): custom resources are
 * unstructured; built-in kinds live in a package named for their group
 * (Events of every group are `core` Events).
 */
export function goTypeName(rt: Pick<ResourceType, 'group' | 'kind' | 'custom'>, list: boolean): string {
  if (rt.custom) return list ? '*unstructured.UnstructuredList' : '*unstructured.Unstructured';
  const first = rt.group.split('.')[0] ?? '';
  const pkg =
    first === '' || first === 'events' ? 'core' : first === 'internal' ? 'apiserverinternal' : first;
  return `*${pkg}.${rt.kind}${list ? 'List' : ''}`;
}

/** 406 when the metadata form asked for (`as=`) is not the shape of the answer, as the real transform refuses it. */
export function partialShapeMismatch(
  rt: Pick<ResourceType, 'group' | 'kind' | 'custom'>,
  asked: 'PartialObjectMetadata' | 'PartialObjectMetadataList',
): StatusError {
  return new StatusError(
    406,
    'NotAcceptable',
    asked === 'PartialObjectMetadata'
      ? `you requested PartialObjectMetadata, but the requested object is a list (${goTypeName(rt, true)})`
      : `you requested PartialObjectMetadataList, but the requested object is not a list (${goTypeName(rt, false)})`,
  );
}

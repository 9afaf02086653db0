/**
 * Content negotiation: which representation a response takes (JSON, YAML,
 * Protobuf, a server-rendered Table, object metadata only, aggregated
 * discovery) from the Accept header, and how a request body is to be read
 * from its Content-Type. Unsupported choices are 406 and 415 as in the real
 * server.
 */

import type { NamingProfile } from '../machinery/naming';
import { notAcceptable, unsupportedMediaType } from '../machinery/errors';
import { parseAccept, parseMediaType, type MediaType } from './media-type';

export type OutputKind = 'json' | 'yaml' | 'protobuf' | 'table' | 'partial' | 'discovery';

export interface OutputFormat {
  kind: OutputKind;
  /** For `table`/`partial`: the meta group version requested (v1 or v1beta1). */
  metaVersion?: string;
  /** For `partial`: whether the client asked for one object's metadata or a list's (406 on the other). */
  partialAs?: 'PartialObjectMetadata' | 'PartialObjectMetadataList';
  /** For `discovery`: the apidiscovery version requested. */
  discoveryVersion?: string;
  /** Table: include the full object of each row (`includeObject`). */
  /** Set when the representation is encoded as protobuf (`protobuf`, or object metadata): the profile whose media type and group names the encoding uses. */
  protobuf?: NamingProfile;
  /** The profile whose kinds the answer is written in: JSON and YAML take Go's field order and zero values. */
  profile?: NamingProfile;
}

export interface NegotiateOptions {
  /** The target can render Tables (resource GET/list). */
  table: boolean;
  /** Protobuf is available for this target (built-in resources). */
  protobuf: boolean;
  /** The target is /api or /apis (aggregated discovery possible). */
  discovery?: boolean;
  /** Watch streams: only json (and protobuf) framing. */
  watch?: boolean;
}

export function acceptedOutputTypes(profile: NamingProfile, opts: NegotiateOptions): string[] {
  const types = ['application/json', 'application/yaml'];
  if (opts.protobuf) types.push(profile.protobufMediaType);
  if (opts.watch)
    return opts.protobuf ? ['application/json', profile.protobufMediaType] : ['application/json'];
  return types;
}

function metaMatches(profile: NamingProfile, m: MediaType, as: string): string | undefined {
  if (m.params.as !== as) return undefined;
  if (m.params.g !== profile.metaGroup) return undefined;
  const v = m.params.v ?? '';
  return v === 'v1' || v === 'v1beta1' ? v : undefined;
}

function partialAs(m: MediaType): OutputFormat['partialAs'] {
  return m.params.as === 'PartialObjectMetadataList' ? 'PartialObjectMetadataList' : 'PartialObjectMetadata';
}

export function negotiateOutput(
  profile: NamingProfile,
  accept: string | null,
  opts: NegotiateOptions,
): OutputFormat {
  // What most requests send (a browser's fetch: `*/*`; clients: JSON) is JSON without parsing the header.
  if (accept === null || accept === '' || accept === '*/*' || accept === 'application/json')
    return jsonOf(profile);
  return { ...negotiateRepresentation(profile, accept, opts), profile };
}

/** The plain JSON output of a profile, one shared (frozen) object: most requests negotiate it. */
let plainJson: OutputFormat | undefined;

function jsonOf(profile: NamingProfile): OutputFormat {
  if (plainJson?.profile !== profile) plainJson = Object.freeze({ kind: 'json', profile });
  return plainJson;
}

function negotiateRepresentation(
  profile: NamingProfile,
  accept: string | null,
  opts: NegotiateOptions,
): OutputFormat {
  const entries = parseAccept(accept);
  if (entries.length === 0) return { kind: 'json' };
  for (const m of entries) {
    if (m.essence === '*/*' || m.essence === 'application/*') return { kind: 'json' };
    if (m.essence === 'application/json') {
      if (m.params.as !== undefined) {
        if (opts.table) {
          const tv = metaMatches(profile, m, 'Table');
          if (tv !== undefined) return { kind: 'table', metaVersion: tv };
        }
        // Metadata-only watches and lists (metadata informers) take the same forms.
        const pv =
          metaMatches(profile, m, 'PartialObjectMetadata') ??
          metaMatches(profile, m, 'PartialObjectMetadataList');
        if (pv !== undefined) return { kind: 'partial', metaVersion: pv, partialAs: partialAs(m) };
        if (
          opts.discovery === true &&
          m.params.as === 'APIGroupDiscoveryList' &&
          m.params.g === profile.suffixed('apidiscovery') &&
          m.params.v === 'v2beta1'
        )
          return { kind: 'discovery', discoveryVersion: 'v2beta1' };
        continue; // an `as=` we cannot serve: try the next entry
      }
      return { kind: 'json' };
    }
    if ((m.essence === 'application/yaml' || m.essence === 'application/*+yaml') && !opts.watch)
      return { kind: 'yaml' };
    if (m.essence === profile.protobufMediaType && opts.protobuf) {
      if (m.params.as === undefined) return { kind: 'protobuf', protobuf: profile };
      // Object metadata has messages too (Go metadata informers ask for it as protobuf first).
      const pv = opts.watch
        ? undefined
        : (metaMatches(profile, m, 'PartialObjectMetadata') ??
          metaMatches(profile, m, 'PartialObjectMetadataList'));
      if (pv !== undefined)
        return { kind: 'partial', metaVersion: pv, partialAs: partialAs(m), protobuf: profile };
    }
  }
  throw notAcceptable(acceptedOutputTypes(profile, opts));
}

export type BodyFormat = 'json' | 'yaml' | 'protobuf';

/** The body format of a POST or PUT from its Content-Type (absent means JSON). */
export function negotiateBody(
  profile: NamingProfile,
  contentType: string | null,
  protobuf: boolean,
): BodyFormat {
  if (contentType === null || contentType.trim() === '') return 'json';
  const m = parseMediaType(contentType);
  if (m?.essence === 'application/json') return 'json';
  if (m?.essence === 'application/yaml') return 'yaml';
  if (m?.essence === profile.protobufMediaType && protobuf) return 'protobuf';
  const accepted = ['application/json', 'application/yaml'];
  if (protobuf) accepted.push(profile.protobufMediaType);
  throw unsupportedMediaType(accepted);
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const patchMediaTypes: Record<PatchType, string> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

/** The patch type of a PATCH from its Content-Type; strategic merge is only offered for built-in kinds. */
export function negotiatePatch(contentType: string | null, strategicAllowed: boolean): PatchType {
  const essence = contentType === null ? '' : (parseMediaType(contentType)?.essence ?? '');
  const allowed: PatchType[] = strategicAllowed
    ? ['json', 'merge', 'strategic', 'apply']
    : ['json', 'merge', 'apply'];
  for (const t of allowed) if (patchMediaTypes[t] === essence) return t;
  throw unsupportedMediaType(allowed.map((t) => patchMediaTypes[t]));
}

/**
 * Lessons are written with the names of the specification (`orch` profile:
 * `rbac.authorization.orch.io/v1`, `orch.io/` label prefixes, `orch-system`);
 * a sandbox started in the `kubernetes` profile serves the upstream names.
 * `localize` rewrites every string of a lesson (texts, objects, paths, CEL
 * expressions) for the profile in use, so one lesson works in both: group
 * names (followed by a version, or standing alone) take the group suffix,
 * label and annotation prefixes take the label domain, and the few
 * renamed system names (namespaces, signers, the root CA ConfigMap, the
 * cluster-info keys, schema extensions, the protobuf media type) their
 * upstream spelling.
 */

import type { NamingProfile } from '../machinery/naming';
import { PROFILES } from '../machinery/naming';

type Rewrite = (text: string) => string;

const cache = new Map<string, Rewrite>();

function rewriterFor(profile: NamingProfile): Rewrite {
  const from = PROFILES.orch;
  if (profile.name === from.name) return (text) => text;
  const found = cache.get(profile.name);
  if (found !== undefined) return found;
  const words: [string, string][] = [
    // Signers first: their paths differ beyond the domain (apiserver-client is kube-apiserver-client).
    ...(Object.keys(from.signers) as (keyof NamingProfile['signers'])[])
      .map((kind): [string, string] => [from.signers[kind], profile.signers[kind]])
      .sort((a, b) => b[0].length - a[0].length),
    [`application/vnd.${from.word}.protobuf`, profile.protobufMediaType],
    [from.ext(''), profile.ext('')],
    [from.rootCAConfigMap, profile.rootCAConfigMap],
    [from.systemNamespace, profile.systemNamespace],
    [from.publicNamespace, profile.publicNamespace],
    [from.nodeLeaseNamespace, profile.nodeLeaseNamespace],
    [`jws-${from.shortWord}config-`, `jws-${profile.shortWord}config-`],
    [`${from.shortWord}-api-access-`, `${profile.shortWord}-api-access-`],
  ];
  const suffix = escape(from.groupSuffix);
  // `apps.orch.io/v1`, `rbac.authorization.orch.io/v1beta1`: a group and version.
  const groupVersion = new RegExp(
    `(\\b[a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.)${suffix}(?=/v\\d+(?:(?:alpha|beta)\\d+)?\\b)`,
    'g',
  );
  // `orch.io/name`, `node.orch.io/not-ready`: a label, annotation, finalizer or signer domain prefix.
  const prefix = new RegExp(`\\b${suffix}/`, 'g');
  // `rbac.authorization.orch.io`, `meta.orch.io`: a group on its own.
  const group = new RegExp(`(\\b[a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.)${suffix}\\b`, 'g');
  const configKey = new RegExp(`\\b${escape(from.shortWord)}config\\b`, 'g');
  const rewrite: Rewrite = (text) => {
    let out = text;
    for (const [a, b] of words) out = out.split(a).join(b);
    return out
      .replace(groupVersion, `$1${profile.groupSuffix}`)
      .replace(prefix, `${profile.labelDomain}/`)
      .replace(group, `$1${profile.groupSuffix}`)
      .replace(configKey, `${profile.shortWord}config`);
  };
  cache.set(profile.name, rewrite);
  return rewrite;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `value` with every string (and object key) rewritten for `profile`; the orch profile returns it as is. */
export function localize<T>(value: T, profile: NamingProfile): T {
  const rewrite = rewriterFor(profile);
  if (profile.name === PROFILES.orch.name) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return rewrite(v);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [rewrite(k), walk(x)]));
    return v;
  };
  return walk(value) as T;
}

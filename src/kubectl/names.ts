/**
 * The API group names compiled into this kubectl. The real kubectl's typed
 * clients, Table request and describers name the upstream `*.k8s.io`
 * groups; against a server in the `orch` naming profile those paths do not
 * exist, so `get` falls back to NAME/AGE and `auth can-i`, `certificate`,
 * the RBAC generators and several describers fail. The Node front end keeps
 * the upstream names (it must print what kubectl v1.27 prints against any
 * server); the browser Terminal builds kubectl for the profile its server
 * runs, as if kubectl had been compiled against that profile's client
 * (decision 0063).
 */

import type { NamingProfile } from '../machinery/naming';

const upstreamSuffix = '.k8s.io';

export interface CompiledNames {
  /** The group this kubectl names where upstream kubectl names `upstream` (a `*.k8s.io` group). */
  group(upstream: string): string;
  /** The upstream name of a group this kubectl names (the inverse of `group`). */
  upstream(group: string): string;
  /** An OpenAPI vendor extension's key (`x-kubernetes-group-version-kind` upstream). */
  ext(name: string): string;
}

/** kubectl v1.27's own names. */
export const upstreamNames: CompiledNames = {
  group: (g) => g,
  upstream: (g) => g,
  ext: (name) => `x-kubernetes-${name}`,
};

/** The names of a kubectl built for `profile`'s server. */
export function compiledNamesFor(profile: NamingProfile): CompiledNames {
  const suffix = profile.suffixed('');
  if (suffix === upstreamSuffix) return upstreamNames;
  return {
    group: (g) => (g.endsWith(upstreamSuffix) ? `${g.slice(0, -upstreamSuffix.length)}${suffix}` : g),
    upstream: (g) => (g.endsWith(suffix) ? `${g.slice(0, -suffix.length)}${upstreamSuffix}` : g),
    ext: (name) => profile.ext(name),
  };
}

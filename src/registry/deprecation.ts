/**
 * Deprecated versions the server still serves by default, with the
 * Warning a request to them gets (the real server's wording) and the
 * release that removes them — in v1.27, flow control's v1beta2 (removed in
 * v1.29, replaced by v1beta3), per the spec's removed-versions table.
 */

import type { NamingProfile } from '../machinery/naming';

interface Deprecated {
  deprecatedIn: string;
  removedIn: string;
  replacement: string;
}

function table(profile: NamingProfile): Map<string, Deprecated> {
  const fc = profile.suffixed('flowcontrol.apiserver');
  return new Map([
    [
      `${fc}/v1beta2/FlowSchema`,
      { deprecatedIn: '1.26', removedIn: '1.29', replacement: `${fc}/v1beta3 FlowSchema` },
    ],
    [
      `${fc}/v1beta2/PriorityLevelConfiguration`,
      { deprecatedIn: '1.26', removedIn: '1.29', replacement: `${fc}/v1beta3 PriorityLevelConfiguration` },
    ],
  ]);
}

export function deprecationOf(
  profile: NamingProfile,
  group: string,
  version: string,
  kind: string,
): { warning: string; removedRelease: string } | undefined {
  const d = table(profile).get(`${group}/${version}/${kind}`);
  if (d === undefined) return undefined;
  return {
    warning: `${group}/${version} ${kind} is deprecated in v${d.deprecatedIn}+, unavailable in v${d.removedIn}+; use ${d.replacement}`,
    removedRelease: d.removedIn,
  };
}

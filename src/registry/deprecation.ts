/**
 * Deprecated versions the server still serves by default, with the
 * Warning a request to them gets (the real server's wording) and the
 * release that removes them — in v1.27, flow control's v1beta2 (removed in
 * v1.29, replaced by v1beta3), per the spec's removed-versions table —
 * and core v1 ComponentStatus, deprecated in v1.19 with no removal planned.
 */

import type { NamingProfile } from '../machinery/naming';

interface Deprecated {
  deprecatedIn: string;
  /** Absent for an API deprecated with no removal planned (ComponentStatus). */
  removedIn?: string;
  replacement?: string;
}

function table(profile: NamingProfile): Map<string, Deprecated> {
  const fc = profile.suffixed('flowcontrol.apiserver');
  return new Map<string, Deprecated>([
    ['/v1/ComponentStatus', { deprecatedIn: '1.19' }],
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
  const groupVersion = group === '' ? version : `${group}/${version}`;
  let warning = `${groupVersion} ${kind} is deprecated in v${d.deprecatedIn}+`;
  if (d.removedIn !== undefined) warning += `, unavailable in v${d.removedIn}+`;
  if (d.replacement !== undefined) warning += `; use ${d.replacement}`;
  return { warning, removedRelease: d.removedIn ?? '' };
}

/**
 * Baseline: the AppArmor profile annotations
 * (`container.apparmor.security.beta.kubernetes.io/<container>`) may only
 * name `runtime/default` or a `localhost/` profile. The annotation keys are
 * the real ones in both naming profiles: they are read by node agents, not
 * by this server's API groups.
 */

import type { PodMetaView } from '../pod-view';
import { allowed, forbidden, type Check, type CheckResult } from './types';

const annotationPrefix = 'container.apparmor.security.beta.kubernetes.io/';

function allowedProfile(profile: string): boolean {
  return profile === '' || profile === 'runtime/default' || profile.startsWith('localhost/');
}

function appArmorProfile(meta: PodMetaView): CheckResult {
  const bad: string[] = [];
  for (const [k, v] of Object.entries(meta.annotations ?? {}))
    if (k.startsWith(annotationPrefix) && !allowedProfile(v)) bad.push(`${k}=${JSON.stringify(v)}`);
  if (bad.length === 0) return allowed;
  bad.sort();
  return forbidden(
    bad.length === 1 ? 'forbidden AppArmor profile' : 'forbidden AppArmor profiles',
    bad.join(', '),
  );
}

export const appArmorProfileCheck: Check = {
  id: 'appArmorProfile',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: appArmorProfile }],
};

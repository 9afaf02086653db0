/**
 * Seccomp. Baseline: a profile, when given, may not be `Unconfined` — read
 * from the alpha annotations before v1.19 and from securityContext fields
 * since. Restricted (v1.19+, replacing the baseline check): every container
 * runs under RuntimeDefault or Localhost, set on the pod or on the
 * container; from v1.25 Windows pods are exempt.
 */

import {
  containersPhrase,
  isWindowsPod,
  joinQuote,
  pluralize,
  sortedSet,
  visitContainers,
  type PodMetaView,
  type PodSpecView,
  type SeccompProfile,
} from '../pod-view';
import { allowed, forbidden, type Check, type CheckResult } from './types';

const podAnnotation = 'seccomp.security.alpha.kubernetes.io/pod';
const containerAnnotationPrefix = 'container.seccomp.security.alpha.kubernetes.io/';

function validAnnotation(v: string): boolean {
  return v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');
}

function validType(t: string | undefined): boolean {
  return t === 'RuntimeDefault' || t === 'Localhost';
}

function present(p: SeccompProfile | undefined | null): p is SeccompProfile {
  return p !== undefined && p !== null;
}

function seccompBaselineAnnotations(meta: PodMetaView, spec: PodSpecView): CheckResult {
  const annotations = meta.annotations ?? {};
  const bad: string[] = [];
  const podValue = annotations[podAnnotation];
  if (podValue !== undefined && !validAnnotation(podValue))
    bad.push(`${podAnnotation}=${JSON.stringify(podValue)}`);
  visitContainers(spec, (c) => {
    const key = containerAnnotationPrefix + (c.name ?? '');
    const v = annotations[key];
    if (v !== undefined && !validAnnotation(v)) bad.push(`${key}=${JSON.stringify(v)}`);
  });
  const sorted = sortedSet(bad);
  if (sorted.length === 0) return allowed;
  return forbidden(
    'seccompProfile',
    `forbidden ${pluralize('annotation', 'annotations', sorted.length)} ${sorted.join(', ')}`,
  );
}

/** Who set a bad type explicitly (`pod`, `containers "a", "b"`), the bad values, and who is left unset. */
function scan(spec: PodSpecView): { setters: string[]; values: string[]; unset: string[] } {
  const setters: string[] = [];
  const values: string[] = [];
  let podSet = false;
  const podProfile = spec.securityContext?.seccompProfile;
  if (present(podProfile)) {
    if (!validType(podProfile.type)) {
      setters.push('pod');
      values.push(podProfile.type ?? '');
    } else podSet = true;
  }
  const explicit: string[] = [];
  const unset: string[] = [];
  visitContainers(spec, (c) => {
    const p = c.securityContext?.seccompProfile;
    if (present(p)) {
      if (!validType(p.type)) {
        explicit.push(c.name ?? '');
        values.push(p.type ?? '');
      }
    } else if (!podSet) unset.push(c.name ?? '');
  });
  if (explicit.length > 0) setters.push(containersPhrase(explicit));
  return { setters, values: sortedSet(values), unset };
}

function badSetterResult(setters: string[], values: string[]): CheckResult {
  return forbidden(
    'seccompProfile',
    `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(values)}`,
  );
}

function seccompBaselineFields(_meta: unknown, spec: PodSpecView): CheckResult {
  const { setters, values } = scan(spec);
  return setters.length === 0 ? allowed : badSetterResult(setters, values);
}

function seccompRestricted(_meta: unknown, spec: PodSpecView): CheckResult {
  const { setters, values, unset } = scan(spec);
  if (setters.length > 0) return badSetterResult(setters, values);
  if (unset.length === 0) return allowed;
  return forbidden(
    'seccompProfile',
    `pod or ${containersPhrase(unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
  );
}

function seccompRestrictedLinuxOnly(meta: unknown, spec: PodSpecView): CheckResult {
  return isWindowsPod(spec) ? allowed : seccompRestricted(meta, spec);
}

export const seccompBaselineCheck: Check = {
  id: 'seccompProfile_baseline',
  level: 'baseline',
  versions: [
    { minimumVersion: 0, checkPod: seccompBaselineAnnotations },
    { minimumVersion: 19, checkPod: seccompBaselineFields },
  ],
};

export const seccompRestrictedCheck: Check = {
  id: 'seccompProfile_restricted',
  level: 'restricted',
  versions: [
    { minimumVersion: 19, checkPod: seccompRestricted, overrides: ['seccompProfile_baseline'] },
    { minimumVersion: 25, checkPod: seccompRestrictedLinuxOnly, overrides: ['seccompProfile_baseline'] },
  ],
};

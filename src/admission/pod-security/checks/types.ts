/**
 * The shape of one Pod Security check: an id, the level it belongs to, and
 * its versioned implementations (each applies from its minimum version
 * until the next one's). A restricted implementation may replace baseline
 * checks that it covers more strictly, so a violation is reported once.
 */

import type { PodMetaView, PodSpecView } from '../pod-view';

export interface CheckResult {
  allowed: boolean;
  /** Short reason, e.g. `privileged`. */
  forbiddenReason?: string;
  /** What exactly is wrong, e.g. `container "c" must not set securityContext.privileged=true`. */
  forbiddenDetail?: string;
}

export type CheckPodFn = (meta: PodMetaView, spec: PodSpecView) => CheckResult;

export interface VersionedCheck {
  /** The v1 minor this implementation applies from. */
  minimumVersion: number;
  checkPod: CheckPodFn;
  /** Baseline check ids this (restricted) implementation replaces at the restricted level. */
  overrides?: readonly string[];
}

export interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  versions: readonly VersionedCheck[];
}

export const allowed: CheckResult = { allowed: true };

export function forbidden(reason: string, detail: string): CheckResult {
  return { allowed: false, forbiddenReason: reason, forbiddenDetail: detail };
}

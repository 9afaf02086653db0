/**
 * Evaluates a pod (its metadata and spec) against one level and version.
 * For each version the applicable implementation of every check is the
 * newest whose minimum version it has reached; `latest`, and any version
 * newer than the newest check, mean the newest of all. The restricted level
 * runs the baseline checks its own checks do not replace, then its own.
 * Results aggregate into the real message format:
 * `reason (detail), reason (detail)`.
 */

import { defaultChecks, type Check, type CheckResult } from './checks';
import type { CheckPodFn } from './checks/types';
import type { LevelVersion } from './levels';
import type { PodMetaView, PodSpecView } from './pod-view';

export interface Evaluator {
  evaluatePod(lv: LevelVersion, meta: PodMetaView, spec: PodSpecView): CheckResult[];
}

interface Active {
  id: string;
  checkPod: CheckPodFn;
  overrides: readonly string[];
}

function activeAt(check: Check, minor: number): Active | undefined {
  let found: Active | undefined;
  for (const v of check.versions)
    if (v.minimumVersion <= minor)
      found = { id: check.id, checkPod: v.checkPod, overrides: v.overrides ?? [] };
  return found;
}

export function newEvaluator(checks: readonly Check[] = defaultChecks): Evaluator {
  const maxMinor = Math.max(...checks.flatMap((c) => c.versions.map((v) => v.minimumVersion)));
  const baseline = new Map<number, CheckPodFn[]>();
  const restricted = new Map<number, CheckPodFn[]>();
  for (let minor = 0; minor <= maxMinor; minor++) {
    const base = checks.filter((c) => c.level === 'baseline').flatMap((c) => activeAt(c, minor) ?? []);
    const strict = checks.filter((c) => c.level === 'restricted').flatMap((c) => activeAt(c, minor) ?? []);
    const overridden = new Set(strict.flatMap((a) => a.overrides));
    baseline.set(
      minor,
      base.map((a) => a.checkPod),
    );
    restricted.set(minor, [
      ...base.filter((a) => !overridden.has(a.id)).map((a) => a.checkPod),
      ...strict.map((a) => a.checkPod),
    ]);
  }
  return {
    evaluatePod(lv, meta, spec) {
      if (lv.level === 'privileged') return [];
      const minor = lv.version.latest ? maxMinor : Math.min(lv.version.minor, maxMinor);
      const fns = (lv.level === 'baseline' ? baseline : restricted).get(minor) ?? [];
      return fns.map((fn) => fn(meta, spec));
    },
  };
}

export interface AggregateResult {
  allowed: boolean;
  /** Reasons only: `host namespaces, privileged` (the namespace-label warnings use these). */
  forbiddenReason: string;
  /** Reasons with details: `privileged (container "c" must not set …)`. */
  forbiddenDetail: string;
}

export function aggregate(results: readonly CheckResult[]): AggregateResult {
  const failed = results.filter((r) => !r.allowed);
  return {
    allowed: failed.length === 0,
    forbiddenReason: failed.map((r) => r.forbiddenReason ?? '').join(', '),
    forbiddenDetail: failed
      .map((r) =>
        r.forbiddenDetail !== undefined && r.forbiddenDetail !== ''
          ? `${r.forbiddenReason ?? ''} (${r.forbiddenDetail})`
          : (r.forbiddenReason ?? ''),
      )
      .join(', '),
  };
}

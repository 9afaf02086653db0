import { describe, expect, it } from 'vitest';
import { PROFILES } from '../../machinery/naming';
import {
  countsAt,
  firstRelease,
  groupVersion,
  lastRelease,
  removedApis,
  stateAt,
  type RemovedApi,
} from './api-timeline';

function find(gv: string, kind: string): RemovedApi {
  const api = removedApis.find(
    (a) => groupVersion(a.group, a.version, PROFILES.orch) === gv && a.kind === kind,
  );
  if (api === undefined) throw new Error(`no entry for ${gv} ${kind}`);
  return api;
}

describe('the removed-versions timeline', () => {
  it('has one entry per group/version/kind of the table', () => {
    const keys = removedApis.map((a) => `${groupVersion(a.group, a.version, PROFILES.orch)} ${a.kind}`);
    expect(new Set(keys).size).toBe(keys.length);
    // v1.29: 2, v1.27: 1, v1.26: 3, v1.25: 7, v1.22: 16, v1.16: 12.
    expect(keys).toHaveLength(41);
    expect(keys).toContain('apps/v1beta2 DaemonSet');
    expect(keys).toContain('rbac.authorization.orch.io/v1beta1 RoleBinding');
  });

  it('keeps each life in order: served, then deprecated, then removed; the replacement exists by the removal', () => {
    for (const api of removedApis) {
      expect(api.servedFrom, api.kind).toBeLessThanOrEqual(api.deprecatedIn);
      expect(api.deprecatedIn, api.kind).toBeLessThan(api.removedIn);
      if (api.replacement !== undefined)
        expect(api.replacement.since, api.kind).toBeLessThanOrEqual(api.removedIn);
      else expect(api.instead, api.kind).toBeDefined();
    }
  });

  it('answers the state at a release', () => {
    const ingress = find('extensions/v1beta1', 'Ingress');
    expect(stateAt(ingress, 16)).toBe('deprecated');
    expect(stateAt(ingress, 21)).toBe('deprecated');
    expect(stateAt(ingress, 22)).toBe('removed');
    const cronJob = find('batch/v1beta1', 'CronJob');
    expect([16, 20, 21, 24, 25].map((r) => stateAt(cronJob, r))).toEqual([
      'served',
      'served',
      'deprecated',
      'deprecated',
      'removed',
    ]);
    const psp = find('policy/v1beta1', 'PodSecurityPolicy');
    expect(stateAt(psp, 16)).toBe('served');
    expect(stateAt(psp, 25)).toBe('removed');
    expect(psp.replacement).toBeUndefined();
    const v1beta2 = find('flowcontrol.apiserver.orch.io/v1beta2', 'PriorityLevelConfiguration');
    expect(stateAt(v1beta2, 22)).toBe('not-yet');
    expect(stateAt(v1beta2, 27)).toBe('deprecated');
    expect(stateAt(v1beta2, 29)).toBe('removed');
    expect(v1beta2.changes.join(' ')).toMatch(/nominalConcurrencyShares/);
    expect(find('flowcontrol.apiserver.orch.io/v1beta2', 'FlowSchema').changes).toEqual([]);
    expect(stateAt(find('apps/v1beta1', 'Deployment'), firstRelease)).toBe('removed');
  });

  it('names groups through the profile', () => {
    const lease = find('coordination.orch.io/v1beta1', 'Lease');
    expect(groupVersion(lease.group, lease.version, PROFILES.kubernetes)).toBe('coordination.k8s.io/v1beta1');
    const cronJob = find('batch/v1beta1', 'CronJob');
    expect(groupVersion(cronJob.group, cronJob.version, PROFILES.kubernetes)).toBe('batch/v1beta1');
  });

  it('removes everything by the last release', () => {
    expect(countsAt(lastRelease)).toEqual({
      'not-yet': 0,
      served: 0,
      deprecated: 0,
      removed: removedApis.length,
    });
  });
});

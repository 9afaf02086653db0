/**
 * Level and version parsing, and a namespace's effective policy from its
 * labels: defaults fill the gaps, bad values are reported per label with
 * the real text, enforce fails closed and audit/warn fail open.
 */

import { describe, expect, it } from 'vitest';
import { namingProfile } from '../../machinery/naming';
import { defaultConfig } from './config';
import { compareLevels, levelVersionString, parseVersion, policyLabels, policyToEvaluate } from './levels';

const keys = policyLabels(namingProfile('kubernetes'));
const defaults = defaultConfig().defaults;

describe('versions', () => {
  it.each([
    ['latest', 'latest', undefined],
    ['v1.0', 'v1.0', undefined],
    ['v1.27', 'v1.27', undefined],
    ['v1.99', 'v1.99', undefined],
    ['v1.05', 'latest', 'must be "latest" or "v1.x"'],
    ['1.27', 'latest', 'must be "latest" or "v1.x"'],
    ['v2.0', 'latest', 'must be "latest" or "v1.x"'],
  ])('%s', (value, parsed, error) => {
    const r = parseVersion(value);
    expect(levelVersionString({ level: 'baseline', version: r.version })).toBe(`baseline:${parsed}`);
    expect(r.error).toBe(error);
  });

  it('orders levels by strictness', () => {
    expect(compareLevels('restricted', 'baseline')).toBe(1);
    expect(compareLevels('privileged', 'baseline')).toBe(-1);
    expect(compareLevels('baseline', 'baseline')).toBe(0);
  });
});

describe('policy from labels', () => {
  it('uses the real label names under the profile', () => {
    expect(keys.level.enforce).toBe('pod-security.kubernetes.io/enforce');
    expect(keys.version.warn).toBe('pod-security.kubernetes.io/warn-version');
    expect(policyLabels(namingProfile('orch')).level.audit).toBe('pod-security.orch.io/audit');
  });

  it('fills unset modes from the defaults', () => {
    const { policy, errors } = policyToEvaluate(
      { [keys.level.enforce]: 'baseline', [keys.version.enforce]: 'v1.24' },
      defaults,
      keys,
    );
    expect(errors).toEqual([]);
    expect(levelVersionString(policy.enforce)).toBe('baseline:v1.24');
    expect(levelVersionString(policy.warn)).toBe('privileged:latest');
  });

  it('reports bad labels in order; enforce fails closed, audit and warn open', () => {
    const { policy, errors } = policyToEvaluate(
      {
        [keys.level.enforce]: 'strict',
        [keys.level.audit]: 'loud',
        [keys.version.warn]: 'next',
        [keys.level.warn]: 'baseline',
      },
      defaults,
      keys,
    );
    expect(levelVersionString(policy.enforce)).toBe('restricted:latest');
    expect(levelVersionString(policy.audit)).toBe('privileged:latest');
    expect(levelVersionString(policy.warn)).toBe('baseline:latest');
    expect(errors.map((e) => [e.field, e.badValue, e.detail])).toEqual([
      [
        'metadata.labels[pod-security.kubernetes.io/enforce]',
        'strict',
        'must be one of privileged, baseline, restricted',
      ],
      [
        'metadata.labels[pod-security.kubernetes.io/audit]',
        'loud',
        'must be one of privileged, baseline, restricted',
      ],
      ['metadata.labels[pod-security.kubernetes.io/warn-version]', 'next', 'must be "latest" or "v1.x"'],
    ]);
  });
});

/**
 * The PodSecurityConfiguration: accepted versions under the profile's
 * group, defaults and exemptions read, and invalid ones refused at start-up.
 */

import { describe, expect, it } from 'vitest';
import { namingProfile } from '../../machinery/naming';
import { AdmissionConfigError } from '../config';
import { parsePodSecurityConfig } from './config';
import { levelVersionString } from './levels';

const profile = namingProfile('kubernetes');

describe('PodSecurityConfiguration', () => {
  it('defaults to privileged:latest everywhere with no exemptions', () => {
    const c = parsePodSecurityConfig(undefined, profile);
    expect(levelVersionString(c.defaults.enforce)).toBe('privileged:latest');
    expect(c.exemptions.usernames.size).toBe(0);
  });

  it.each(['v1', 'v1beta1', 'v1alpha1'])('reads %s', (version) => {
    const c = parsePodSecurityConfig(
      {
        apiVersion: `pod-security.admission.config.k8s.io/${version}`,
        kind: 'PodSecurityConfiguration',
        defaults: { enforce: 'baseline', 'enforce-version': 'v1.25', warn: 'restricted' },
        exemptions: { usernames: ['ci'], namespaces: ['kube-system'], runtimeClasses: ['kata'] },
      },
      profile,
    );
    expect(levelVersionString(c.defaults.enforce)).toBe('baseline:v1.25');
    expect(levelVersionString(c.defaults.warn)).toBe('restricted:latest');
    expect(levelVersionString(c.defaults.audit)).toBe('privileged:latest');
    expect([...c.exemptions.namespaces]).toEqual(['kube-system']);
    expect(c.exemptions.runtimeClasses.has('kata')).toBe(true);
  });

  it.each([
    [
      { apiVersion: 'pod-security.admission.config.orch.io/v1', kind: 'PodSecurityConfiguration' },
      'expected PodSecurityConfiguration',
    ],
    [
      {
        apiVersion: 'pod-security.admission.config.k8s.io/v1',
        kind: 'PodSecurityConfiguration',
        defaults: { enforce: 'strict' },
      },
      'defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted',
    ],
    [
      {
        apiVersion: 'pod-security.admission.config.k8s.io/v1',
        kind: 'PodSecurityConfiguration',
        exemptions: { usernames: ['a', 'a'] },
      },
      'exemptions.usernames[1]: Duplicate value: "a"',
    ],
  ])('refuses %j', (raw, message) => {
    expect(() => parsePodSecurityConfig(raw, profile)).toThrow(AdmissionConfigError);
    expect(() => parsePodSecurityConfig(raw, profile)).toThrow(message);
  });
});

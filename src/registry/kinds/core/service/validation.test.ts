import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../api/meta';
import { aggregateFieldErrors } from '../../../../machinery/field-errors';
import { clusterIPUpdateErrors, serviceUpdateErrors } from './validation';

const svc = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Service', spec });

describe('clusterIPUpdateErrors (the real validateUpgradeDowngradeClusterIPs)', () => {
  it.each<{ what: string; old: Record<string, unknown>; next: Record<string, unknown>; errors: string }>([
    { what: 'unchanged', old: { clusterIPs: ['10.0.0.9'] }, next: { clusterIPs: ['10.0.0.9'] }, errors: '' },
    {
      what: 'primary changed',
      old: { clusterIPs: ['10.0.0.9'] },
      next: { clusterIPs: ['10.0.0.8'] },
      errors: 'spec.clusterIPs[0]: Invalid value: []string{"10.0.0.8"}: may not change once set',
    },
    {
      what: 'primary unset',
      old: { clusterIPs: ['10.0.0.9'] },
      next: {},
      errors: 'spec.clusterIPs[0]: Invalid value: []string(nil): primary clusterIP can not be unset',
    },
    {
      what: 'secondary released without SingleStack',
      old: { clusterIPs: ['10.0.0.9', 'fd00::9'], ipFamilyPolicy: 'PreferDualStack' },
      next: { clusterIPs: ['10.0.0.9'], ipFamilyPolicy: 'PreferDualStack' },
      errors:
        'spec.ipFamilyPolicy: Invalid value: "PreferDualStack": must be set to \'SingleStack\' when releasing the secondary clusterIP',
    },
    {
      what: 'secondary released with SingleStack',
      old: { clusterIPs: ['10.0.0.9', 'fd00::9'] },
      next: { clusterIPs: ['10.0.0.9'], ipFamilyPolicy: 'SingleStack' },
      errors: '',
    },
    {
      what: 'secondary added, primary changed',
      old: { clusterIPs: ['10.0.0.9'] },
      next: { clusterIPs: ['10.0.0.8', 'fd00::9'] },
      errors: 'spec.clusterIPs[0]: Invalid value: []string{"10.0.0.8", "fd00::9"}: may not change once set',
    },
    {
      what: 'to ExternalName',
      old: { clusterIPs: ['10.0.0.9'] },
      next: { type: 'ExternalName' },
      errors: '',
    },
    {
      what: 'from ExternalName',
      old: { type: 'ExternalName' },
      next: { clusterIPs: ['10.0.0.8'] },
      errors: '',
    },
    {
      what: 'headless to headless',
      old: { clusterIPs: ['None'] },
      next: { clusterIPs: ['None'] },
      errors: '',
    },
    {
      what: 'headless to allocated',
      old: { clusterIPs: ['None'] },
      next: { clusterIPs: ['10.0.0.8'] },
      errors: 'spec.clusterIPs[0]: Invalid value: []string{"10.0.0.8"}: may not change once set',
    },
  ])('$what', ({ old, next, errors }) => {
    expect(aggregateFieldErrors(clusterIPUpdateErrors(svc(next), svc(old)))).toBe(errors);
  });
});

describe('serviceUpdateErrors (IP families as validateUpgradeDowngradeIPFamilies)', () => {
  const ip4 = { clusterIPs: ['10.0.0.9'], ipFamilies: ['IPv4'] };
  it.each<{ what: string; old: Record<string, unknown>; next: Record<string, unknown>; errors: string }>([
    { what: 'unchanged', old: ip4, next: ip4, errors: '' },
    {
      what: 'family changed',
      old: ip4,
      next: { clusterIPs: ['10.0.0.9'], ipFamilies: ['IPv6'] },
      errors: 'spec.ipFamilies[0]: Invalid value: []core.IPFamily{"IPv6"}: may not change once set',
    },
    {
      what: 'secondary family released without SingleStack',
      old: { clusterIPs: ['10.0.0.9', 'fd00::9'], ipFamilies: ['IPv4', 'IPv6'] },
      next: { clusterIPs: ['10.0.0.9', 'fd00::9'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'RequireDualStack' },
      errors:
        'spec.ipFamilyPolicy: Invalid value: "RequireDualStack": must be set to \'SingleStack\' when releasing the secondary ipFamily',
    },
    {
      what: 'headless may change families',
      old: { clusterIPs: ['None'], ipFamilies: ['IPv4'] },
      next: { clusterIPs: ['None'], ipFamilies: ['IPv6'] },
      errors: '',
    },
  ])('$what', ({ old, next, errors }) => {
    expect(aggregateFieldErrors(serviceUpdateErrors(svc(next), svc(old)))).toBe(errors);
  });
});

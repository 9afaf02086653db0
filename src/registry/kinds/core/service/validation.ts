/**
 * The Service update rules the real `ValidateServiceUpdate` adds to the
 * object checks: an allocated cluster IP is immutable (only a secondary
 * one may be added or released, on a dual-stack upgrade or downgrade), and
 * the rule does not apply to or from `ExternalName` or between headless
 * Services; the IP families follow the same rule. Without it a PUT could move a Service onto another's address.
 */

import type { KubeObject } from '../../../../api/meta';
import { fieldError, GoValueText, type FieldError } from '../../../../machinery/field-errors';

type Spec = Record<string, unknown>;

const specOf = (obj: KubeObject): Spec =>
  typeof obj.spec === 'object' && obj.spec !== null && !Array.isArray(obj.spec) ? (obj.spec as Spec) : {};
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : '')) : [];
const isHeadless = (ips: string[]) => ips.length === 1 && ips[0] === 'None';

/** Go's `%#v` of a `[]string` (`[]string(nil)` when empty), as the real errors print `spec.clusterIPs`. */
function goStrings(values: string[]): GoValueText {
  if (values.length === 0) return new GoValueText('[]string(nil)');
  return new GoValueText(`[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`);
}

/** The real `validateUpgradeDowngradeClusterIPs`. */
export function clusterIPUpdateErrors(obj: KubeObject, old: KubeObject): FieldError[] {
  const s = specOf(obj);
  const o = specOf(old);
  if (s.type === 'ExternalName' || o.type === 'ExternalName') return [];
  const ips = strings(s.clusterIPs);
  const oldIPs = strings(o.clusterIPs);
  if (isHeadless(ips) && isHeadless(oldIPs)) return [];
  const errors: FieldError[] = [];
  const changed = (i: number) =>
    errors.push({
      type: 'FieldValueInvalid',
      field: `spec.clusterIPs[${i}]`,
      badValue: goStrings(ips),
      detail: 'may not change once set',
    });
  if (oldIPs.length === ips.length) {
    for (const [i, ip] of oldIPs.entries()) if (ip !== ips[i]) changed(i);
  } else if (oldIPs.length > ips.length) {
    if (ips.length === 0)
      errors.push({
        type: 'FieldValueInvalid',
        field: 'spec.clusterIPs[0]',
        badValue: goStrings(ips),
        detail: 'primary clusterIP can not be unset',
      });
    else if (ips[0] !== oldIPs[0]) changed(0);
    if (ips.length === 1 && s.ipFamilyPolicy !== 'SingleStack')
      errors.push({
        type: 'FieldValueInvalid',
        field: 'spec.ipFamilyPolicy',
        badValue: typeof s.ipFamilyPolicy === 'string' ? s.ipFamilyPolicy : null,
        detail: "must be set to 'SingleStack' when releasing the secondary clusterIP",
      });
  } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) changed(0);
  return errors;
}

/** Go's `%#v` of the internal `[]core.IPFamily`. */
function goFamilies(values: string[]): GoValueText {
  if (values.length === 0) return new GoValueText('[]core.IPFamily(nil)');
  return new GoValueText(`[]core.IPFamily{${values.map((v) => JSON.stringify(v)).join(', ')}}`);
}

/** The real `validateUpgradeDowngradeIPFamilies` (its quirks kept: index 0 and the clusterIPs value in some errors). */
export function ipFamilyUpdateErrors(obj: KubeObject, old: KubeObject): FieldError[] {
  const s = specOf(obj);
  const o = specOf(old);
  if (s.type === 'ExternalName' || o.type === 'ExternalName') return [];
  const headless = isHeadless(strings(s.clusterIPs));
  if (headless || isHeadless(strings(o.clusterIPs))) return [];
  const families = strings(s.ipFamilies);
  const oldFamilies = strings(o.ipFamilies);
  const errors: FieldError[] = [];
  const changed = (badValue: GoValueText) =>
    errors.push({
      type: 'FieldValueInvalid',
      field: 'spec.ipFamilies[0]',
      badValue,
      detail: 'may not change once set',
    });
  if (oldFamilies.length === families.length) {
    for (const [i, f] of oldFamilies.entries()) if (f !== families[i]) changed(goFamilies(families));
  } else if (oldFamilies.length > families.length) {
    if (strings(s.clusterIPs).length === 0)
      errors.push({
        type: 'FieldValueInvalid',
        field: 'spec.ipFamilies[0]',
        badValue: goFamilies(families),
        detail: 'primary ipFamily can not be unset',
      });
    if (families.length > 0 && families[0] !== oldFamilies[0]) changed(goStrings(strings(s.clusterIPs)));
    if (families.length === 1 && s.ipFamilyPolicy !== 'SingleStack')
      errors.push({
        type: 'FieldValueInvalid',
        field: 'spec.ipFamilyPolicy',
        badValue: typeof s.ipFamilyPolicy === 'string' ? s.ipFamilyPolicy : null,
        detail: "must be set to 'SingleStack' when releasing the secondary ipFamily",
      });
  } else if (oldFamilies.length > 0 && families.length > 0 && families[0] !== oldFamilies[0])
    changed(goStrings(strings(s.clusterIPs)));
  return errors;
}

/** The rules `ValidateServiceUpdate` adds, in its order. */
export function serviceUpdateErrors(obj: KubeObject, old: KubeObject): FieldError[] {
  return [...clusterIPUpdateErrors(obj, old), ...ipFamilyUpdateErrors(obj, old)];
}

const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'] as const;

/** `spec.type`, when set, is one of the four the real validation supports (an empty value is defaulted). */
export function serviceTypeErrors(obj: KubeObject): FieldError[] {
  const type = (obj['spec'] as Spec | undefined)?.['type'];
  if (type === undefined || type === '' || (serviceTypes as readonly unknown[]).includes(type)) return [];
  return [fieldError.notSupported('spec.type', type, serviceTypes)];
}

/**
 * DenyServiceExternalIPs: no new use of `spec.externalIPs` on a Service (a
 * well-known way to intercept traffic). A create with any external IP is
 * refused; an update may keep or drop the IPs the Service already had but
 * not add one.
 */

import type { KubeObject } from '../../api/meta';
import type { AdmissionPluginFactory } from '../types';
import { admissionForbidden } from './support/errors';

const externalIPs = (svc: KubeObject | undefined): string[] => {
  const ips = (svc?.spec as { externalIPs?: unknown } | undefined)?.externalIPs;
  return Array.isArray(ips) ? ips.filter((ip): ip is string => typeof ip === 'string') : [];
};

export const denyServiceExternalIPs: AdmissionPluginFactory = () => ({
  name: 'DenyServiceExternalIPs',
  operations: ['CREATE', 'UPDATE'],
  validate(a) {
    if (a.group !== '' || a.resource !== 'services' || a.subresource !== '') return Promise.resolve();
    const wanted = externalIPs(a.object);
    if (wanted.length === 0) return Promise.resolve();
    const had = new Set(a.oldObject === undefined ? [] : externalIPs(a.oldObject));
    if (a.oldObject !== undefined && wanted.every((ip) => had.has(ip))) return Promise.resolve();
    return Promise.reject(admissionForbidden(a, 'Use of external IPs is denied by admission control'));
  },
});

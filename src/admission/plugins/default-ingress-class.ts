/**
 * DefaultIngressClass: an Ingress created without a class
 * (`spec.ingressClassName` unset and no legacy `<domain>/ingress.class`
 * annotation) gets the default IngressClass — the one annotated
 * `ingressclass.<domain>/is-default-class: "true"`. No default: nothing
 * happens. More than one: every such creation is refused (the seed's rule;
 * decision 0016). Updates are ignored.
 */

import type { KubeObject } from '../../api/meta';
import type { AdmissionPluginFactory } from '../types';
import { admissionForbidden } from './support/errors';
import { defaultClass } from './support/default-class';

export const defaultIngressClass: AdmissionPluginFactory = (deps) => {
  const group = deps.profile.suffixed('networking');
  const classes = deps.lister(group, 'ingressclasses');
  const defaultAnnotation = deps.profile.subPrefixed('ingressclass', 'is-default-class');
  const legacyClassAnnotation = deps.profile.prefixed('ingress.class');
  return {
    name: 'DefaultIngressClass',
    operations: ['CREATE'],
    async admit(a): Promise<KubeObject | undefined> {
      if (a.group !== group || a.resource !== 'ingresses' || a.subresource !== '' || a.object === undefined)
        return undefined;
      const spec = (a.object.spec ?? {}) as { ingressClassName?: unknown };
      if (spec.ingressClassName !== undefined && spec.ingressClassName !== null) return undefined;
      if (a.object.metadata?.annotations?.[legacyClassAnnotation] !== undefined) return undefined;
      await deps.listersSynced();
      const found = defaultClass(classes, [defaultAnnotation]);
      if (found.kind === 'none') return undefined;
      if (found.kind === 'several')
        // The pre-v1.25 plugin wrapped an InternalError in its Forbidden, hence the prefix (decision 0016).
        throw admissionForbidden(
          a,
          `Internal error occurred: ${found.count} default IngressClasses were found, only 1 allowed`,
        );
      const next = structuredClone(a.object);
      next.spec = { ...((next.spec ?? {}) as object), ingressClassName: found.name };
      return next;
    },
  };
};

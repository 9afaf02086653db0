/**
 * The informers each default-on plugin asks for as it is built (its
 * `deps.lister` calls, in order). A chain built before the plugins' script is
 * loaded (admission/build.ts) asks for them itself, so that they are made and
 * start with the server's other informers, in the same order, as when the
 * plugins were built at start: their first lists, the `listersSynced` they
 * wait on and the start's informer hook stay where they were (decision 0122).
 * default-on-listers.test.ts holds this table to what the plugins ask for.
 */

import type { NamingProfile } from '../../machinery/naming';
import type { AdmissionPluginName } from './index';

/** `[group, resource]` pairs, in the order the plugin's factory asks for them. */
export function defaultOnListers(
  name: AdmissionPluginName,
  profile: NamingProfile,
): readonly (readonly [string, string])[] {
  const admissionRegistration = `admissionregistration.${profile.groupSuffix}`;
  switch (name) {
    case 'LimitRanger':
      return [['', 'limitranges']];
    case 'ServiceAccount':
      return [['', 'serviceaccounts']];
    case 'PodSecurity':
      return [['', 'pods']];
    case 'Priority':
      return [[profile.suffixed('scheduling'), 'priorityclasses']];
    case 'DefaultStorageClass':
    case 'PersistentVolumeClaimResize':
      return [[profile.suffixed('storage'), 'storageclasses']];
    case 'RuntimeClass':
      return [[profile.suffixed('node'), 'runtimeclasses']];
    case 'DefaultIngressClass':
      return [[profile.suffixed('networking'), 'ingressclasses']];
    case 'MutatingAdmissionWebhook':
      return [[admissionRegistration, 'mutatingwebhookconfigurations']];
    case 'ValidatingAdmissionWebhook':
      return [[admissionRegistration, 'validatingwebhookconfigurations']];
    case 'ResourceQuota':
      return [['', 'resourcequotas']];
    default:
      return [];
  }
}

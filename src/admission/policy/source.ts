/**
 * Where the dispatcher finds policies and bindings: the informer caches of
 * `admissionregistration.<groupSuffix>/v1alpha1` (absent when the version
 * is not enabled with `--runtime-config`), each policy paired with the
 * bindings that name it, both sorted by name so evaluation (and the trace)
 * has a stable order.
 */

import type { Lister } from '../../machinery/lister';
import type { AdmissionPluginDeps } from '../types';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from './types';

export interface PolicyHook {
  policy: ValidatingAdmissionPolicy;
  bindings: ValidatingAdmissionPolicyBinding[];
}

export interface PolicySource {
  hooks(): Promise<PolicyHook[]>;
}

export function policySource(
  deps: Pick<AdmissionPluginDeps, 'profile' | 'lister' | 'listersSynced'>,
): PolicySource {
  const group = `admissionregistration.${deps.profile.groupSuffix}`;
  let listers: { policies: Lister; bindings: Lister } | null | undefined;
  return {
    async hooks() {
      if (listers === undefined) {
        try {
          listers = {
            policies: deps.lister(group, 'validatingadmissionpolicies'),
            bindings: deps.lister(group, 'validatingadmissionpolicybindings'),
          };
          await deps.listersSynced();
        } catch {
          // The version is not served: no policy can exist.
          listers = null;
        }
      }
      if (listers === null) return [];
      const byPolicy = new Map<string, ValidatingAdmissionPolicyBinding[]>();
      for (const b of listers.bindings.list() as ValidatingAdmissionPolicyBinding[]) {
        const name = b.spec?.policyName ?? '';
        const list = byPolicy.get(name) ?? [];
        list.push(b);
        byPolicy.set(name, list);
      }
      return (listers.policies.list() as ValidatingAdmissionPolicy[])
        .slice()
        .sort((x, y) => compare(x.metadata?.name ?? '', y.metadata?.name ?? ''))
        .map((policy) => ({
          policy,
          bindings: (byPolicy.get(policy.metadata?.name ?? '') ?? []).sort((x, y) =>
            compare(x.metadata?.name ?? '', y.metadata?.name ?? ''),
          ),
        }));
    },
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

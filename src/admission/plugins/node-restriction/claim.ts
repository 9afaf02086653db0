/**
 * NodeRestriction's rule for claim status: a node agent reports volume
 * expansion on a claim's status (capacity, conditions, and with
 * RecoverVolumeExpansionFailure the allocated resources and resize status)
 * and may change nothing else — no labels, finalizers or owners.
 */

import type { KubeObject } from '../../../api/meta';
import { goQuote } from '../../../machinery/go-format';
import { deepEqual } from '../../../machinery/json';
import type { AdmissionAttributes } from '../../types';
import { admissionForbidden } from '../support/errors';

type Json = Record<string, unknown>;

function comparable(o: KubeObject | undefined, recovery: boolean): Json {
  const copy = JSON.parse(JSON.stringify(o ?? {})) as Json;
  const meta = (copy.metadata ?? {}) as Json;
  delete meta.resourceVersion;
  delete meta.managedFields;
  const status = (copy.status ?? {}) as Json;
  delete status.capacity;
  delete status.conditions;
  if (recovery) {
    delete status.allocatedResources;
    delete status.resizeStatus;
    delete status.allocatedResourceStatuses;
  }
  return copy;
}

/** The dotted paths where two JSON values differ (what the real message shows as a diff). */
function differences(a: unknown, b: unknown, path: string, out: string[]): void {
  const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort())
      differences(a[k], b[k], path === '' ? k : `${path}.${k}`, out);
    return;
  }
  if (!deepEqual(a, b)) out.push(path);
}

export function claimStatusCheck(recovery: boolean): (node: string, a: AdmissionAttributes) => void {
  return (node, a) => {
    if (a.operation !== 'UPDATE') throw admissionForbidden(a, `unexpected operation ${goQuote(a.operation)}`);
    const changed: string[] = [];
    differences(comparable(a.oldObject, recovery), comparable(a.object, recovery), '', changed);
    if (changed.length > 0)
      throw admissionForbidden(
        a,
        `node ${goQuote(node)} is not allowed to update fields other than status.capacity and status.conditions: ${changed.join(', ')}`,
      );
  };
}

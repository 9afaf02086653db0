/**
 * NodeRestriction's rules for the Node object itself: a node agent writes
 * only its own Node, never deletes it (the seed's rule), never registers or
 * moves it to a config source (that would widen what the Node authorizer
 * lets it read), never changes its taints (that would draw workloads meant
 * to avoid it) and sets only its own kind of labels.
 */

import type { KubeObject } from '../../../api/meta';
import { goQuote } from '../../../machinery/go-format';
import { deepEqual } from '../../../machinery/json';
import type { NamingProfile } from '../../../machinery/naming';
import type { AdmissionAttributes } from '../../types';
import { admissionForbidden } from '../support/errors';
import { modifiedLabels, NodeLabelPolicy } from './labels';

type NodeSpec = { configSource?: unknown; taints?: unknown[] };

const specOf = (o: KubeObject | undefined): NodeSpec => (o?.spec ?? {}) as NodeSpec;

/** Nil and empty compare equal, as the real semantic equality has it. */
function taintsOf(o: KubeObject | undefined): unknown[] {
  return specOf(o).taints ?? [];
}

export function nodeObjectCheck(profile: NamingProfile): (node: string, a: AdmissionAttributes) => void {
  const labels = new NodeLabelPolicy(profile);
  return (node, a) => {
    if (a.name !== node)
      throw admissionForbidden(a, `node ${goQuote(node)} is not allowed to modify node ${goQuote(a.name)}`);
    if (a.operation === 'DELETE')
      throw admissionForbidden(a, `node ${goQuote(node)} is not allowed to delete node ${goQuote(a.name)}`);
    if (a.operation === 'CREATE') {
      const configSource = specOf(a.object).configSource;
      if (configSource !== undefined && configSource !== null)
        throw admissionForbidden(
          a,
          `node ${goQuote(node)} is not allowed to create pods with a non-nil configSource`,
        );
      const forbidden = labels.forbidden(modifiedLabels(a.object?.metadata?.labels, undefined));
      if (forbidden.length > 0)
        throw admissionForbidden(
          a,
          `node ${goQuote(node)} is not allowed to set the following labels: ${forbidden.join(', ')}`,
        );
      return;
    }
    if (a.operation !== 'UPDATE') return;
    const configSource = specOf(a.object).configSource;
    if (
      configSource !== undefined &&
      configSource !== null &&
      !deepEqual(configSource, specOf(a.oldObject).configSource)
    )
      throw admissionForbidden(
        a,
        `node ${goQuote(node)} is not allowed to update configSource to a new non-nil configSource`,
      );
    if (!deepEqual(taintsOf(a.object), taintsOf(a.oldObject)))
      throw admissionForbidden(a, `node ${goQuote(node)} is not allowed to modify taints`);
    const forbidden = labels.forbidden(
      modifiedLabels(a.object?.metadata?.labels, a.oldObject?.metadata?.labels),
    );
    if (forbidden.length > 0)
      throw admissionForbidden(a, `is not allowed to modify labels: ${forbidden.join(', ')}`);
  };
}

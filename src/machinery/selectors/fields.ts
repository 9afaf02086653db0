/**
 * Field selectors (`fieldSelector=`): `field=value`, `field==value`,
 * `field!=value` joined by commas, with `\` escapes, over the fields each
 * kind supports in the real server (metadata.name and metadata.namespace
 * everywhere, plus per-kind fields such as a Pod's spec.nodeName and
 * status.phase or a Secret's type). An unsupported field is an error.
 */

import type { KubeObject } from '../../api/meta';
import { SelectorParseError } from './labels';

export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

function splitUnescaped(input: string, sep: string): string[] {
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < input.length; i++) {
    const c = input.charAt(i);
    if (c === '\\' && i + 1 < input.length) {
      cur += c + input.charAt(i + 1);
      i++;
    } else if (c === sep) {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  parts.push(cur);
  return parts;
}

function unescape(v: string): string {
  return v.replace(/\\(.)/g, '$1');
}

export function parseFieldSelector(input: string): FieldRequirement[] {
  if (input.trim() === '') return [];
  return splitUnescaped(input, ',').map((term) => {
    for (const [op, kind] of [
      ['!=', '!='],
      ['==', '='],
      ['=', '='],
    ] as const) {
      const at = term.indexOf(op);
      if (at > 0)
        return {
          field: term.slice(0, at).trim(),
          operator: kind,
          value: unescape(term.slice(at + op.length)),
        };
    }
    throw new SelectorParseError(`invalid selector: '${input}'; can't understand '${term}'`);
  });
}

/** Per-kind field accessors beyond metadata.name/namespace (keyed `<group>/<kind>`, core group empty). */
const kindFields: Record<string, Record<string, (o: KubeObject) => string>> = {
  '/Pod': {
    'spec.nodeName': (o) => str(o, 'spec', 'nodeName'),
    'spec.restartPolicy': (o) => str(o, 'spec', 'restartPolicy'),
    'spec.schedulerName': (o) => str(o, 'spec', 'schedulerName'),
    'spec.serviceAccountName': (o) => str(o, 'spec', 'serviceAccountName'),
    'spec.hostNetwork': (o) => String(get(o, 'spec', 'hostNetwork') === true),
    'status.phase': (o) => str(o, 'status', 'phase'),
    'status.podIP': (o) => str(o, 'status', 'podIP'),
    'status.nominatedNodeName': (o) => str(o, 'status', 'nominatedNodeName'),
  },
  '/Secret': { type: (o) => (typeof o.type === 'string' ? o.type : '') },
  '/Namespace': { 'status.phase': (o) => str(o, 'status', 'phase') },
  '/Node': { 'spec.unschedulable': (o) => String(get(o, 'spec', 'unschedulable') === true) },
  '/ReplicationController': { 'status.replicas': (o) => String(get(o, 'status', 'replicas') ?? 0) },
  '/Event': {
    'involvedObject.kind': (o) => str(o, 'involvedObject', 'kind'),
    'involvedObject.namespace': (o) => str(o, 'involvedObject', 'namespace'),
    'involvedObject.name': (o) => str(o, 'involvedObject', 'name'),
    'involvedObject.uid': (o) => str(o, 'involvedObject', 'uid'),
    'involvedObject.apiVersion': (o) => str(o, 'involvedObject', 'apiVersion'),
    'involvedObject.resourceVersion': (o) => str(o, 'involvedObject', 'resourceVersion'),
    'involvedObject.fieldPath': (o) => str(o, 'involvedObject', 'fieldPath'),
    reason: (o) => (typeof o.reason === 'string' ? o.reason : ''),
    reportingComponent: (o) => (typeof o.reportingComponent === 'string' ? o.reportingComponent : ''),
    source: (o) => str(o, 'source', 'component'),
    type: (o) => (typeof o.type === 'string' ? o.type : ''),
  },
  'batch/Job': { 'status.successful': (o) => String(get(o, 'status', 'succeeded') ?? 0) },
  'certificates/CertificateSigningRequest': { 'spec.signerName': (o) => str(o, 'spec', 'signerName') },
};

function get(o: KubeObject, a: string, b: string): unknown {
  const outer = o[a];
  return typeof outer === 'object' && outer !== null ? (outer as Record<string, unknown>)[b] : undefined;
}

function str(o: KubeObject, a: string, b: string): string {
  const v = get(o, a, b);
  return typeof v === 'string' ? v : '';
}

/** `groupBase` is the group without the profile suffix (e.g. `certificates`), '' for core. */
export function fieldAccessor(
  groupBase: string,
  kind: string,
  field: string,
  namespaced: boolean,
): ((o: KubeObject) => string) | undefined {
  if (field === 'metadata.name') return (o) => o.metadata?.name ?? '';
  // Cluster-scoped objects have an empty namespace, and the real server accepts the field for them too.
  if (field === 'metadata.namespace') return namespaced ? (o) => o.metadata?.namespace ?? '' : () => '';
  return kindFields[`${groupBase}/${kind}`]?.[field];
}

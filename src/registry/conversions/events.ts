/**
 * Event core v1 (the hub, where both are stored) ↔ the events group's v1, as
 * the spec's Event notes map them: involvedObject ↔ regarding, message ↔
 * note, source ↔ deprecatedSource, firstTimestamp/lastTimestamp/count ↔
 * their deprecated* forms, reportingComponent ↔ reportingController.
 */

import type { KubeObject } from '../../api/meta';
import type { Spoke } from '../conversion';

type Obj = Record<string, unknown>;

const pairs: [core: string, events: string][] = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
  ['reportingComponent', 'reportingController'],
];

function rename(obj: KubeObject, from: 0 | 1): KubeObject {
  const out: Obj = {};
  const map = new Map(pairs.map((p) => [p[from], p[from === 0 ? 1 : 0]]));
  for (const [k, v] of Object.entries(obj)) out[map.get(k) ?? k] = v;
  return out as KubeObject;
}

export function eventsV1Spoke(apiVersion: string): Spoke {
  return {
    apiVersion,
    fromHub: (core) => rename(core, 0),
    toHub: (events) => rename(events, 1),
  };
}

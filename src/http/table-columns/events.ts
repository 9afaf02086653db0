/**
 * Event printers: core/v1 Event and events/v1 Event share the columns
 * (last seen, type, reason, object, message, and in wide output the
 * subobject, source, first seen, count and name) and differ only in how
 * their fields are spelled.
 */

import type { Printer } from './printer';
import { at, column, int, nameColumn, rec, since, str, type Obj } from './format';

const name = (o: Obj): string => str(at(o, 'metadata', 'name'));

const eventColumns = [
  column('Last Seen', 'string', 'When the event was last observed.'),
  column('Type', 'string', 'Normal or Warning.'),
  column('Reason', 'string', 'Why the event happened, in one word.'),
  column('Object', 'string', 'The object the event is about.'),
  column('Subobject', 'string', 'The part of the object, e.g. a container.', 1),
  column('Source', 'string', 'The component that reported it.', 1),
  column('Message', 'string', 'What happened.'),
  column('First Seen', 'string', 'When the event was first observed.', 1),
  column('Count', 'string', 'How often it happened.', 1),
  { ...nameColumn, priority: 1 },
];

interface EventFacts {
  first: unknown;
  eventTime: unknown;
  last: unknown;
  count: unknown;
  series?: Obj;
  involved: Obj;
  type: string;
  reason: string;
  message: string;
  component: string;
  host: string;
}

/** The event row from its facts (core/v1 and events/v1 events spell them differently). */
function eventCells(o: Obj, f: EventFacts, now: Date): unknown[] {
  let first = since(f.first, now);
  if (typeof f.first !== 'string') first = since(f.eventTime, now);
  let last = typeof f.last === 'string' ? since(f.last, now) : first;
  let count = int(f.count);
  if (f.series !== undefined) {
    last = since(f.series.lastObservedTime, now);
    count = int(f.series.count);
  } else if (count === 0) count = 1;
  const kind = str(f.involved.kind).toLowerCase();
  const target = str(f.involved.name) !== '' ? `${kind}/${str(f.involved.name)}` : kind;
  const source = f.host === '' ? f.component : `${f.component}, ${f.host}`;
  return [
    last,
    f.type,
    f.reason,
    target,
    str(f.involved.fieldPath),
    source,
    f.message.trim(),
    first,
    count,
    name(o),
  ];
}

const coreEvent: Printer = {
  columns: eventColumns,
  cells(o, c) {
    const series = at(o, 'series');
    return eventCells(
      o,
      {
        first: o.firstTimestamp,
        eventTime: o.eventTime,
        last: o.lastTimestamp,
        count: o.count,
        ...(series !== undefined ? { series: rec(series) } : {}),
        involved: rec(o.involvedObject),
        type: str(o.type),
        reason: str(o.reason),
        message: str(o.message),
        component: str(at(o, 'source', 'component')) || str(o.reportingComponent),
        host: str(at(o, 'source', 'host')) || str(o.reportingInstance),
      },
      c.now,
    );
  },
};

const eventsV1: Printer = {
  columns: eventColumns,
  cells(o, c) {
    const series = o.series;
    return eventCells(
      o,
      {
        first: o.deprecatedFirstTimestamp,
        eventTime: o.eventTime,
        last: o.deprecatedLastTimestamp,
        count: o.deprecatedCount,
        ...(series !== undefined ? { series: rec(series) } : {}),
        involved: rec(o.regarding),
        type: str(o.type),
        reason: str(o.reason),
        message: str(o.note),
        component: str(at(o, 'deprecatedSource', 'component')) || str(o.reportingController),
        host: str(at(o, 'deprecatedSource', 'host')) || str(o.reportingInstance),
      },
      c.now,
    );
  },
};

export const eventPrinters = { core: coreEvent, v1: eventsV1 };

/**
 * Printers of the control plane's own configuration kinds: API Priority
 * and Fairness (FlowSchema, PriorityLevelConfiguration, in every served
 * version) and the aggregator's APIService, with the columns and cells of
 * the real server's printers.
 */

import type { Printer } from './printer';
import { age, ageColumn, arr, at, column, nameColumn, rec, str, type Obj } from './format';

const name = (o: Obj): string => str(at(o, 'metadata', 'name'));

function condition(o: Obj, type: string): Obj | undefined {
  return arr(at(o, 'status', 'conditions'))
    .map(rec)
    .find((c) => str(c.type) === type);
}

const flowSchema: Printer = {
  columns: [
    nameColumn,
    column('PriorityLevel', 'string', 'The priority level configuration the matched requests go to.'),
    column('MatchingPrecedence', 'string', 'Lower values are matched first.'),
    column('DistinguisherMethod', 'string', 'How matched requests are split into flows.'),
    ageColumn,
    column('MissingPL', 'string', 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
  cells(o, c) {
    const method = str(at(o, 'spec', 'distinguisherMethod', 'type'));
    const dangling = condition(o, 'Dangling');
    return [
      name(o),
      str(at(o, 'spec', 'priorityLevelConfiguration', 'name')),
      at(o, 'spec', 'matchingPrecedence') ?? 0,
      method === '' ? '<none>' : method,
      age(o, c.now),
      dangling === undefined ? '?' : str(dangling.status),
    ];
  },
};

const priorityLevel: Printer = {
  columns: [
    nameColumn,
    column('Type', 'string', 'Whether requests at this level are limited or exempt.'),
    // v1beta2 names the shares `assuredConcurrencyShares`; the real printer prints the internal field's name.
    column('NominalConcurrencyShares', 'string', 'The share of the server concurrency this level gets.'),
    column('Queues', 'string', 'The number of queues.'),
    column('HandSize', 'string', 'The number of queues a flow is dealt.'),
    column('QueueLengthLimit', 'string', 'The number of requests a queue may hold.'),
    ageColumn,
  ],
  cells(o, c) {
    const limited = at(o, 'spec', 'limited');
    let shares: unknown = '<none>';
    let queues: unknown = '<none>';
    let handSize: unknown = '<none>';
    let queueLengthLimit: unknown = '<none>';
    if (limited !== undefined && limited !== null) {
      const l = rec(limited);
      shares = l['nominalConcurrencyShares'] ?? l['assuredConcurrencyShares'] ?? 0;
      const queuing = at(l, 'limitResponse', 'queuing');
      if (queuing !== undefined && queuing !== null) {
        const q = rec(queuing);
        queues = q['queues'] ?? 0;
        handSize = q['handSize'] ?? 0;
        queueLengthLimit = q['queueLengthLimit'] ?? 0;
      }
    }
    return [name(o), str(at(o, 'spec', 'type')), shares, queues, handSize, queueLengthLimit, age(o, c.now)];
  },
};

const apiService: Printer = {
  columns: [
    nameColumn,
    column('Service', 'string', 'The reference to the service that hosts this API endpoint.'),
    column('Available', 'string', 'Whether this service is available.'),
    ageColumn,
  ],
  cells(o, c) {
    const service = at(o, 'spec', 'service');
    const ref = service === undefined || service === null ? undefined : rec(service);
    const available = condition(o, 'Available');
    let status = 'Unknown';
    if (available !== undefined) {
      const s = str(available.status);
      const reason = str(available.reason);
      status = s === 'True' || reason === '' ? s : `${s} (${reason})`;
    }
    return [
      name(o),
      ref === undefined ? 'Local' : `${str(ref['namespace'])}/${str(ref['name'])}`,
      status,
      age(o, c.now),
    ];
  },
};

/** By base group name; the table adds the profile's suffix. */
export const controlPlanePrinters: Record<string, Record<string, Printer>> = {
  'flowcontrol.apiserver': { FlowSchema: flowSchema, PriorityLevelConfiguration: priorityLevel },
  apiregistration: { APIService: apiService },
};

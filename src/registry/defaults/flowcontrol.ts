/**
 * flowcontrol v1beta3 and v1beta2 defaults: a FlowSchema's matching
 * precedence is 1000; a limited priority level has 30 concurrency shares
 * and lends nothing; queuing uses 64 queues, hand size 8 and 50 requests
 * per queue.
 */

import { num, ptr, type Defaulter } from './helpers';

const queuing: Defaulter = (q) => {
  num(q, 'handSize', 8);
  num(q, 'queues', 64);
  num(q, 'queueLengthLimit', 50);
};

function versionDefaults(version: 'v1beta2' | 'v1beta3'): Record<string, Defaulter> {
  const shares = version === 'v1beta3' ? 'nominalConcurrencyShares' : 'assuredConcurrencyShares';
  return {
    [`api.flowcontrol.${version}.FlowSchemaSpec`]: (spec) => num(spec, 'matchingPrecedence', 1000),
    [`api.flowcontrol.${version}.LimitedPriorityLevelConfiguration`]: (limited) => {
      num(limited, shares, 30);
      ptr(limited, 'lendablePercent', 0);
    },
    [`api.flowcontrol.${version}.QueuingConfiguration`]: queuing,
  };
}

export const flowcontrolDefaults: Record<string, Defaulter> = {
  ...versionDefaults('v1beta2'),
  ...versionDefaults('v1beta3'),
};

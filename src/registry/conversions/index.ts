/**
 * The conversion families of the built-in resources served in more than one
 * version, keyed by storage identity (`<group>/<resource>`), under the
 * active naming profile.
 */

import type { NamingProfile } from '../../machinery/naming';
import type { ConversionFamily } from '../conversion';
import { autoscalingV1Spoke } from './autoscaling';
import { eventsV1Spoke } from './events';
import { flowcontrolV1beta2Spoke } from './flowcontrol';

export function builtInConversionFamilies(profile: NamingProfile): Map<string, ConversionFamily> {
  const flowcontrol = profile.suffixed('flowcontrol.apiserver');
  const plc: ConversionFamily = {
    hubApiVersion: `${flowcontrol}/v1beta3`,
    spokes: [flowcontrolV1beta2Spoke(`${flowcontrol}/v1beta2`)],
  };
  return new Map([
    [
      'autoscaling/horizontalpodautoscalers',
      { hubApiVersion: 'autoscaling/v2', spokes: [autoscalingV1Spoke(profile)] },
    ],
    ['/events', { hubApiVersion: 'v1', spokes: [eventsV1Spoke(`${profile.suffixed('events')}/v1`)] }],
    [`${flowcontrol}/prioritylevelconfigurations`, plc],
    [`${flowcontrol}/flowschemas`, { hubApiVersion: `${flowcontrol}/v1beta3`, spokes: [] }],
  ]);
}

/**
 * Services: `--advertise-address`, `--service-cluster-ip-range` and
 * `--service-node-port-range`: the addresses and ports the allocators hand
 * out, and where the `kubernetes` Service points.
 */

import { isIP } from 'node:net';
import { parsePortRange, parseServiceClusterIPRanges } from '../../../machinery/service-ranges';
import type { NodeHostOptions } from '../host';
import { FlagError, invalid, type FlagDecl, type RawFlags } from './flags';

export const servicesFlags = {
  'advertise-address': {
    kind: 'string',
    type: 'ip',
    section: 'generic',
    usage:
      'The IP address on which to advertise the apiserver to members of the cluster: the `kubernetes` Endpoints and EndpointSlice point at it. A loopback address is refused by Endpoints validation, as on a real server.',
    default: '192.168.49.2',
  },
  'service-cluster-ip-range': {
    kind: 'string',
    section: 'misc',
    usage:
      'A CIDR notation IP range from which to assign service cluster IPs. This must not overlap with any IP ranges assigned to nodes or pods. Max of two dual-stack CIDRs is allowed.',
    default: '10.0.0.0/24',
  },
  'service-node-port-range': {
    kind: 'string',
    type: 'portRange',
    section: 'misc',
    usage:
      "A port range to reserve for services with NodePort visibility.  This must not overlap with the ephemeral port range on nodes.  Example: '30000-32767'. Inclusive at both ends of the range.",
    default: '30000-32767',
  },
} as const satisfies Record<string, FlagDecl>;

type ServicesFlag = keyof typeof servicesFlags;

/**
 * `--advertise-address` (an IP, as pflag's IP flag parses it), `--service-node-port-range` (pflag's PortRange)
 * and `--service-cluster-ip-range` (validated as the real server's options: a bad CIDR stops the start at once,
 * the size and dual-stack rules are validation errors).
 */
export function servicesOf(raw: RawFlags<ServicesFlag>, options: NodeHostOptions): string[] {
  const s = raw.strings;
  const advertise = s['advertise-address'];
  if (advertise !== undefined && advertise !== '') {
    if (isIP(advertise) === 0)
      throw invalid('advertise-address', advertise, `failed to parse IP: "${advertise}"`);
    options.advertiseAddress = advertise;
  }
  const ports = s['service-node-port-range'];
  if (ports !== undefined) {
    try {
      parsePortRange(ports);
    } catch (e) {
      throw invalid('service-node-port-range', ports, (e as Error).message);
    }
    options.serviceNodePortRange = ports;
  }
  const range = s['service-cluster-ip-range'];
  if (range === undefined) return [];
  try {
    parseServiceClusterIPRanges(range);
  } catch (e) {
    const message = (e as Error).message;
    if (message.startsWith('service-cluster-ip-range[')) throw new FlagError(message);
    return [message];
  }
  options.serviceClusterIPRange = range;
  return [];
}

/** discovery/v1 defaults: EndpointSlice ports are unnamed TCP ports unless they say otherwise. */

import { ptr, type Defaulter } from './helpers';

export const discoveryDefaults: Record<string, Defaulter> = {
  'api.discovery.v1.EndpointPort': (port) => {
    ptr(port, 'name', '');
    ptr(port, 'protocol', 'TCP');
  },
};

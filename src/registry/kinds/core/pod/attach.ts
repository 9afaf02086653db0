/**
 * `pods/<name>/attach`: attaches to a running container's streams through
 * the node agent (GET or POST). The query is a PodAttachOptions; the checks
 * and answers are exec's (`stream.ts`, `node-agent.ts`).
 */

import type { Connecter } from '../../../rest/capabilities';
import type { StoredKindContext } from '../../types';
import { queryBool, queryString } from './connect';
import { agentStream } from './node-agent';
import { scheduledPod } from './stream';
import { streamMethods } from '../lazy-subresources';

export function attachStorage(ctx: StoredKindContext): Connecter {
  return {
    connectMethods: streamMethods,
    async connect(scope, name, _method, query) {
      const streams = {
        stdin: queryBool(query, 'stdin'),
        stdout: queryBool(query, 'stdout'),
        stderr: queryBool(query, 'stderr'),
      };
      const options = {
        kind: 'PodAttachOptions',
        apiVersion: 'v1',
        ...streams,
        tty: queryBool(query, 'tty'),
        container: queryString(query, 'container'),
      };
      const { container } = await scheduledPod(ctx, scope, name, options, options.container);
      // Attaching to a simulated container's own streams is not offered: the stand-in's answer.
      return agentStream(container, streams);
    },
  };
}

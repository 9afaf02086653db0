/**
 * `pods/<name>/exec`: runs a command in a container through the node agent
 * (GET for browsers' WebSockets, POST for SPDY). The query is a
 * PodExecOptions. The real server does not check `command` itself (kubectl
 * refuses an empty one before asking); the checks it does make come first,
 * so a pod without a node answers 400 `pod <p> does not have a host
 * assigned` whatever the command.
 */

import type { Connecter } from '../../../rest/capabilities';
import type { StoredKindContext } from '../../types';
import { queryBool, queryString } from './connect';
import { agentStream } from './node-agent';
import { scheduledPod } from './stream';

export function execStorage(ctx: StoredKindContext): Connecter {
  return {
    connectMethods: ['GET', 'POST'],
    async connect(scope, name, _method, query) {
      const streams = {
        stdin: queryBool(query, 'stdin'),
        stdout: queryBool(query, 'stdout'),
        stderr: queryBool(query, 'stderr'),
      };
      const options = {
        kind: 'PodExecOptions',
        apiVersion: 'v1',
        ...streams,
        tty: queryBool(query, 'tty'),
        container: queryString(query, 'container'),
        command: query.getAll('command'),
      };
      const { container } = await scheduledPod(ctx, scope, name, options, options.container);
      return agentStream(container, streams);
    },
  };
}

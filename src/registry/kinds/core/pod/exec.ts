/**
 * `pods/<name>/exec`: runs a command in a container through the node agent
 * (GET for browsers' WebSockets, POST for SPDY). The query is a
 * PodExecOptions. The real server does not check `command` itself (kubectl
 * refuses an empty one before asking); the checks it does make come first,
 * so a pod without a node answers 400 `pod <p> does not have a host
 * assigned` whatever the command. The node agent then starts the command:
 * its session is carried once the connection switched protocols
 * (`http/handlers/connect.ts`), or its refusal is relayed.
 */

import type { Connecter } from '../../../rest/capabilities';
import type { StoredKindContext } from '../../types';
import { badRequest, StatusError } from '../../../../machinery/errors';
import { queryBool, queryString } from './connect';
import { agentStream } from './node-agent';
import { scheduledPod } from './stream';
import { streamMethods } from '../lazy-subresources';

export function execStorage(ctx: StoredKindContext): Connecter {
  return {
    connectMethods: streamMethods,
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
      const { pod, container, agent } = await scheduledPod(ctx, scope, name, options, options.container);
      if (agent === undefined) return agentStream(container, streams);
      if (!streams.stdin && !streams.stdout && !streams.stderr)
        throw badRequest('you must specify at least 1 of stdin, stdout, stderr');
      const answer = await agent.exec({
        namespace: scope.namespace,
        pod: name,
        ...(pod.metadata?.uid !== undefined ? { uid: pod.metadata.uid } : {}),
        container,
        command: options.command,
        ...streams,
        tty: options.tty,
      });
      if ('refused' in answer)
        throw new StatusError(
          answer.refused.code,
          answer.refused.code === 400 ? 'BadRequest' : 'InternalError',
          answer.refused.message,
        );
      return { status: 101, upgrade: { session: answer.session, streams: { ...streams, tty: options.tty } } };
    },
  };
}

/**
 * `pods/<name>/log`: a container's log, as the real server's log storage
 * serves it. The query is a PodLogOptions (bad numbers are 400, values the
 * options forbid 422 `PodLogOptions "<pod>" is invalid`), the pod must
 * exist and name the container (400 `container <c> is not valid for pod
 * <pod>`). A pod that no node runs yet has no log to show: 204 with no body,
 * so `kubectl logs` prints nothing. A scheduled pod's node must exist (404)
 * and be reachable; its node agent answers (`agent-dial.ts`): the log, or
 * its refusal relayed with its code and text. A node without an agent is
 * answered by the stand-in (`node-agent.ts`).
 */

import { fieldError, type FieldError } from '../../../../machinery/field-errors';
import { badRequest, invalid } from '../../../../machinery/errors';
import { goQuote } from '../../../../machinery/go-format';
import type { Connecter } from '../../../rest/capabilities';
import type { StoredKindContext } from '../../types';
import { joinHostPort } from '../node/connection';
import { agentError, dialAgent } from './agent-dial';
import { chooseContainer, queryBool, queryInt64, queryString } from './connect';
import { agentLog } from './node-agent';
import { logMethods } from '../lazy-subresources';

export interface PodLogOptions {
  container: string;
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  sinceSeconds?: number;
  /** Present (possibly '' for the zero time) when the query has `sinceTime`. */
  sinceTime?: string;
  tailLines?: number;
  limitBytes?: number;
}

const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** PodLogOptions from the query, with the real parameter codec's 400s for values that do not convert. */
export function parseLogOptions(query: URLSearchParams): PodLogOptions {
  const options: PodLogOptions = {
    container: queryString(query, 'container'),
    follow: queryBool(query, 'follow'),
    previous: queryBool(query, 'previous'),
    timestamps: queryBool(query, 'timestamps'),
  };
  const sinceSeconds = queryInt64(query, 'sinceSeconds');
  if (sinceSeconds !== undefined) options.sinceSeconds = sinceSeconds;
  const tailLines = queryInt64(query, 'tailLines');
  if (tailLines !== undefined) options.tailLines = tailLines;
  const limitBytes = queryInt64(query, 'limitBytes');
  if (limitBytes !== undefined) options.limitBytes = limitBytes;
  if (query.has('sinceTime')) {
    // A metav1.Time query value: '' and 'null' are the zero time, anything else RFC 3339.
    const v = query.get('sinceTime') ?? '';
    if (v !== '' && v !== 'null' && !rfc3339.test(v))
      throw badRequest(
        `parsing time ${goQuote(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${goQuote(v)} as "2006"`,
      );
    options.sinceTime = v;
  }
  return options;
}

/** The real server's PodLogOptions validation. */
export function validateLogOptions(o: PodLogOptions): FieldError[] {
  const errors: FieldError[] = [];
  if (o.tailLines !== undefined && o.tailLines < 0)
    errors.push(fieldError.invalid('tailLines', o.tailLines, 'must be greater than or equal to 0'));
  if (o.limitBytes !== undefined && o.limitBytes < 1)
    errors.push(fieldError.invalid('limitBytes', o.limitBytes, 'must be greater than 0'));
  if (o.sinceSeconds !== undefined && o.sinceTime !== undefined)
    errors.push(fieldError.forbidden('', 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  else if (o.sinceSeconds !== undefined && o.sinceSeconds < 1)
    errors.push(fieldError.invalid('sinceSeconds', o.sinceSeconds, 'must be greater than 0'));
  return errors;
}

export function logStorage(ctx: StoredKindContext): Connecter {
  return {
    // No admission either: reads are not admitted.
    connectMethods: logMethods,
    async connect(scope, name, _method, query) {
      const options = parseLogOptions(query);
      const errors = validateLogOptions(options);
      if (errors.length > 0) throw invalid({ group: '', kind: 'PodLogOptions' }, name, errors);
      const pod = await ctx.store.get(scope, name);
      const container = chooseContainer(pod, options.container);
      const nodeName = (pod.spec as { nodeName?: string } | undefined)?.nodeName ?? '';
      if (nodeName === '') return { status: 204 };
      const { connection, agent } = await dialAgent(ctx, scope, nodeName);
      if (agent === undefined) return agentLog(pod, container, options.previous);
      const url = new URL(
        `https://${joinHostPort(connection.hostname, connection.port)}/containerLogs/${encodeURIComponent(scope.namespace)}/${encodeURIComponent(name)}/${encodeURIComponent(container)}`,
      );
      for (const [k, v] of Object.entries(options))
        if (k !== 'container' && v !== undefined && v !== false) url.searchParams.set(k, String(v));
      const response = await agent.fetch(new Request(url));
      if (!response.ok) throw await agentError(response);
      return { status: 200, contentType: 'text/plain', body: response.body ?? '' };
    },
  };
}

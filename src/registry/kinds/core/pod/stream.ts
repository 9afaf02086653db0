/**
 * What exec, attach and portforward share, in the real server's order: the
 * options decoded from the query, CONNECT admission of them, the pod (404),
 * for exec and attach its container (400), a host assigned (400 `pod <p>
 * does not have a host assigned`), the node and its address — and then the
 * node agent (`agent-dial.ts`), or the stand-in's answer (`node-agent.ts`).
 */

import type { KubeObject } from '../../../../api/meta';
import { badRequest } from '../../../../machinery/errors';
import type { RequestScope } from '../../../rest/scope';
import type { StoredKindContext } from '../../types';
import type { NodeAgent } from '../../../../api/node-agent';
import { dialAgent } from './agent-dial';
import { admitConnect, chooseContainer } from './connect';

/** The pod a stream request addresses, once admission, the container and the node all check out. */
export async function scheduledPod(
  ctx: StoredKindContext,
  scope: RequestScope,
  name: string,
  options: KubeObject,
  container: string | undefined,
): Promise<{ pod: KubeObject; container: string; agent: NodeAgent | undefined }> {
  await admitConnect(ctx.deps, ctx.rt, scope, name, options);
  const pod = await ctx.store.get(scope, name);
  const chosen = container === undefined ? '' : chooseContainer(pod, container);
  const nodeName = (pod.spec as { nodeName?: string } | undefined)?.nodeName ?? '';
  if (nodeName === '') throw badRequest(`pod ${name} does not have a host assigned`);
  const { agent } = await dialAgent(ctx, scope, nodeName);
  return { pod, container: chosen, agent };
}

/**
 * The sandbox's stand-in for the node agent (kubelet) behind a scheduled
 * pod's log, exec, attach and portforward. No agent runs and no container
 * ever starts, so once the real server would forward the request, the
 * sandbox answers what a kubelet answers for containers that are not
 * running — judged, for logs, from the container statuses the pod's status
 * records (the only account of its containers there is). A kubelet sends
 * some of these as 500; here they are all 400 BadRequest, because nothing
 * failed on the server's side: the request cannot succeed until the pod's
 * state changes. A container whose status says it runs (or ran) has a log,
 * which is empty: sandbox containers write nothing.
 */

import type { KubeObject } from '../../../../api/meta';
import { badRequest } from '../../../../machinery/errors';
import type { ConnectResponse } from '../../../rest/capabilities';

interface ContainerState {
  waiting?: { reason?: string };
  running?: object;
  terminated?: { containerID?: string };
}

interface ContainerStatus {
  name?: string;
  containerID?: string;
  state?: ContainerState;
  lastState?: ContainerState;
}

interface PodStatus {
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
  ephemeralContainerStatuses?: ContainerStatus[];
}

function statusOf(pod: KubeObject, container: string): ContainerStatus | undefined {
  const s = (pod.status ?? {}) as PodStatus;
  for (const list of [s.containerStatuses, s.initContainerStatuses, s.ephemeralContainerStatuses]) {
    const found = (list ?? []).find((c) => c.name === container);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The kubelet's answer to a log request for `container`, from the pod's recorded container status. */
export function agentLog(pod: KubeObject, container: string, previous: boolean): ConnectResponse {
  const podName = pod.metadata?.name ?? '';
  const c = JSON.stringify(container);
  const p = JSON.stringify(podName);
  const status = statusOf(pod, container);
  if (status === undefined) throw badRequest(`container ${c} in pod ${p} is not available`);
  const state = status.state ?? {};
  const last = status.lastState ?? {};
  const empty: ConnectResponse = { status: 200, contentType: 'text/plain', body: '' };
  if (previous) {
    if ((last.terminated?.containerID ?? '') === '')
      throw badRequest(`previous terminated container ${c} in pod ${p} not found`);
    return empty;
  }
  if (state.running !== undefined) return empty;
  if (state.terminated !== undefined) {
    if ((state.terminated.containerID ?? '') !== '' || (last.terminated?.containerID ?? '') !== '')
      return empty;
    throw badRequest(`container ${c} in pod ${p} is terminated`);
  }
  if (last.terminated !== undefined) {
    if ((last.terminated.containerID ?? '') !== '') return empty;
    throw badRequest(`container ${c} in pod ${p} is terminated`);
  }
  if (state.waiting !== undefined) {
    const reason = state.waiting.reason ?? '';
    if (reason === 'ErrImagePull')
      throw badRequest(`container ${c} in pod ${p} is waiting to start: image can't be pulled`);
    if (reason === 'ImagePullBackOff')
      throw badRequest(`container ${c} in pod ${p} is waiting to start: trying and failing to pull image`);
    throw badRequest(`container ${c} in pod ${p} is waiting to start: ${reason}`);
  }
  throw badRequest(`container ${c} in pod ${p} is waiting to start - no logs yet`);
}

/** The kubelet's answer to exec or attach: the streams are checked first, then the container, which never runs. */
export function agentStream(
  container: string,
  streams: { stdin: boolean; stdout: boolean; stderr: boolean },
): never {
  if (!streams.stdin && !streams.stdout && !streams.stderr)
    throw badRequest('you must specify at least 1 of stdin, stdout, stderr');
  throw badRequest(`container not found (${JSON.stringify(container)})`);
}

/** The kubelet's answer to portforward: the pod's sandbox never runs. */
export function agentPortForward(pod: KubeObject): never {
  const fullName = `${pod.metadata?.name ?? ''}_${pod.metadata?.namespace ?? ''}`;
  throw badRequest(`pod not found (${JSON.stringify(fullName)})`);
}

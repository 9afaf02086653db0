/**
 * MutatingAdmissionWebhook: calls the matching webhooks of every
 * MutatingWebhookConfiguration in sequence, applying their JSON patches
 * (see `../webhook/mutating.ts`). The dispatch is a lazy script, loaded
 * with the first configuration there is to call.
 */

import type { AdmissionPlugin, AdmissionPluginFactory } from '../types';
import { webhookDispatch } from '../webhook/library';
import { webhookSource } from '../webhook/source';

export const mutatingAdmissionWebhook: AdmissionPluginFactory = (deps) => {
  const source = webhookSource(deps, 'mutating');
  // With a configuration (its kubeconfig's credentials) it is built now, as before, so that its errors refuse
  // the start: loadAdmissionPlugins loaded the dispatch for it.
  let dispatch: AdmissionPlugin | undefined =
    deps.config !== undefined && webhookDispatch.loaded
      ? webhookDispatch.get().mutatingWebhookPlugin(deps, source)
      : undefined;
  return {
    name: 'MutatingAdmissionWebhook',
    recordsOwnSteps: true,
    async admit(a) {
      // No configuration, nothing to call (the dispatch would return here too).
      if ((await source.webhooks()).length === 0) return undefined;
      dispatch ??= (await webhookDispatch.load()).mutatingWebhookPlugin(deps, source);
      return dispatch.admit?.(a);
    },
  };
};

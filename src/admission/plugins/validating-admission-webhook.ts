/**
 * ValidatingAdmissionWebhook: calls the matching webhooks of every
 * ValidatingWebhookConfiguration in parallel; any rejection fails the
 * request (see `../webhook/validating.ts`). The dispatch is a lazy script,
 * loaded with the first configuration there is to call.
 */

import type { AdmissionPlugin, AdmissionPluginFactory } from '../types';
import { webhookDispatch } from '../webhook/library';
import { webhookSource } from '../webhook/source';

export const validatingAdmissionWebhook: AdmissionPluginFactory = (deps) => {
  const source = webhookSource(deps, 'validating');
  // With a configuration (its kubeconfig's credentials) it is built now, as before, so that its errors refuse
  // the start: loadAdmissionPlugins loaded the dispatch for it.
  let dispatch: AdmissionPlugin | undefined =
    deps.config !== undefined && webhookDispatch.loaded
      ? webhookDispatch.get().validatingWebhookPlugin(deps, source)
      : undefined;
  return {
    name: 'ValidatingAdmissionWebhook',
    recordsOwnSteps: true,
    async validate(a) {
      // No configuration, nothing to call (the dispatch would return here too).
      if ((await source.webhooks()).length === 0) return;
      dispatch ??= (await webhookDispatch.load()).validatingWebhookPlugin(deps, source);
      await dispatch.validate?.(a);
    },
  };
};

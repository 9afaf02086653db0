/**
 * The admission webhooks' dispatch, loaded when the first webhook
 * configuration is there to call (see machinery/lazy-module.ts), and the
 * plugin both webhook admission plugins are until then: it only lists the
 * configurations, as the dispatch would first.
 */

import { LazyModule } from '../../machinery/lazy-module';
import type { AdmissionPlugin, AdmissionPluginDeps } from '../types';
import { webhookSource } from './source';
import type { WebhookKind } from './types';
import type * as WebhookDispatch from './webhook-dispatch.lazy';

export const webhookDispatch = new LazyModule<typeof WebhookDispatch>(
  'webhook-dispatch',
  () => import('./webhook-dispatch.lazy'),
);

/**
 * The MutatingAdmissionWebhook or ValidatingAdmissionWebhook plugin: its half (admit or validate) calls
 * the dispatch of `kind`, loaded with the first configuration there is to call.
 */
export function lazyWebhookPlugin(
  deps: AdmissionPluginDeps,
  kind: WebhookKind,
  name: string,
): AdmissionPlugin {
  const source = webhookSource(deps, kind);
  const build = (loaded: typeof WebhookDispatch): AdmissionPlugin =>
    kind === 'mutating'
      ? loaded.mutatingWebhookPlugin(deps, source)
      : loaded.validatingWebhookPlugin(deps, source);
  // With a configuration (its kubeconfig's credentials) it is built now, as before, so that its errors refuse
  // the start: loadAdmissionPlugins loaded the dispatch for it.
  let dispatch: AdmissionPlugin | undefined =
    deps.config !== undefined && webhookDispatch.loaded ? build(webhookDispatch.get()) : undefined;
  const dispatching = async (): Promise<AdmissionPlugin | undefined> => {
    // No configuration, nothing to call (the dispatch would return here too).
    if ((await source.webhooks()).length === 0) return undefined;
    return (dispatch ??= build(await webhookDispatch.load()));
  };
  const plugin = { name, recordsOwnSteps: true };
  if (kind === 'mutating')
    return {
      ...plugin,
      async admit(a) {
        return (await dispatching())?.admit?.(a);
      },
    };
  return {
    ...plugin,
    async validate(a) {
      await (await dispatching())?.validate?.(a);
    },
  };
}

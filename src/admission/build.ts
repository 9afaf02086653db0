/**
 * Turns the admission flags into the running chain, as kube-apiserver does:
 * `--enable-admission-plugins` adds to the default-on set and
 * `--disable-admission-plugins` removes from it (an unknown name, or a name
 * in both, refuses to start with the real message); the enabled plugins run
 * in the recommended order whatever order the flags give. The plugins are
 * two lazy scripts, those off by default (decision 0070) and those on by
 * default (0122): `loadAdmissionPlugins` before building a chain, so that
 * its configuration's errors are the caller's (a start refused, a settings
 * update's 400). A chain of default-on plugins without a configuration built
 * before their script is loaded (the browser worker's start) loads it at its
 * first admission; it asks for the plugins' informers at once.
 */

import { AdmissionChain, DeferredAdmissionChain } from './chain';
import type { PluginConfigurations } from './config';
import type { AdmissionMetrics } from './metrics';
import { defaultOnListers } from './plugins/default-on-listers';
import { defaultOnPluginNames, orderedPluginNames, type AdmissionPluginName } from './plugins/index';
import { defaultOnPlugins, offByDefaultPlugins } from './plugins/library';
import { webhookDispatch } from './webhook/library';
import type { AdmissionPluginDeps, AdmissionPluginFactory } from './types';

export interface AdmissionOptions {
  /** `--enable-admission-plugins` (in addition to the default-on set). */
  enablePlugins?: readonly string[];
  /** `--disable-admission-plugins`. */
  disablePlugins?: readonly string[];
  /**
   * Per-plugin configuration from `--admission-control-config-file`. Plugins read the kubeconfig files it names
   * (YAML) while the chain is built, synchronously: a host that gives configurations loads `yamlLibrary` first.
   */
  pluginConfigurations?: PluginConfigurations;
  /** Reads files the configurations name (see AdmissionPluginDeps.loadFile). */
  loadFile?: (path: string) => string;
}

/** The start-up errors the real AdmissionOptions.Validate reports, in its order. */
export function validateAdmissionOptions(o: AdmissionOptions): string[] {
  const known = new Set<string>(orderedPluginNames);
  const errors: string[] = [];
  for (const name of o.enablePlugins ?? [])
    if (!known.has(name)) errors.push(`enable-admission-plugins plugin "${name}" is unknown`);
  for (const name of o.disablePlugins ?? [])
    if (!known.has(name)) errors.push(`disable-admission-plugins plugin "${name}" is unknown`);
  const disabled = new Set(o.disablePlugins ?? []);
  const both = [...new Set(o.enablePlugins ?? [])].filter((n) => disabled.has(n)).sort();
  if (both.length > 0)
    errors.push(`[${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  return errors;
}

/** The enabled plugins in the order they run. */
export function enabledPluginNames(o: AdmissionOptions): AdmissionPluginName[] {
  const enabled = new Set(o.enablePlugins ?? []);
  const disabled = new Set(o.disablePlugins ?? []);
  return orderedPluginNames.filter(
    (name) =>
      (defaultOnPluginNames.has(name) || enabled.has(name)) && !(disabled.has(name) && !enabled.has(name)),
  );
}

/**
 * Loads what building these options' chain needs from lazy scripts: the plugins on by default, those off by
 * default they enable, and the webhook dispatch when a webhook plugin has a configuration.
 */
export async function loadAdmissionPlugins(o: AdmissionOptions): Promise<void> {
  const enabled = enabledPluginNames(o);
  if (enabled.some((name) => defaultOnPluginNames.has(name))) await defaultOnPlugins.load();
  if (enabled.some((name) => !defaultOnPluginNames.has(name))) await offByDefaultPlugins.load();
  // A webhook plugin with a configuration reads its kubeconfig as it is built (the webhook dispatch, lazy too).
  if (enabled.some((name) => webhookPlugins.has(name) && o.pluginConfigurations?.get(name) !== undefined))
    await webhookDispatch.load();
}

const webhookPlugins: ReadonlySet<string> = new Set([
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionWebhook',
]);

function factoryOf(name: AdmissionPluginName): AdmissionPluginFactory {
  const factory = defaultOnPluginNames.has(name)
    ? defaultOnPlugins.get().defaultOnFactories[name]
    : offByDefaultPlugins.get().offByDefaultFactories[name];
  if (factory === undefined) throw new Error(`admission plugin ${name} has no factory`);
  return factory;
}

export function buildAdmissionChain(
  o: AdmissionOptions,
  deps: Omit<AdmissionPluginDeps, 'config'>,
  metrics: AdmissionMetrics,
): AdmissionChain {
  const names = enabledPluginNames(o);
  const build = () =>
    new AdmissionChain(
      names.map((name) => {
        const config = o.pluginConfigurations?.get(name);
        return factoryOf(name)(config === undefined ? deps : { ...deps, config });
      }),
      metrics,
    );
  const defaultOnNeeded = names.some((name) => defaultOnPluginNames.has(name));
  const offNeeded = names.some((name) => !defaultOnPluginNames.has(name));
  if ((!defaultOnNeeded || defaultOnPlugins.loaded) && (!offNeeded || offByDefaultPlugins.loaded))
    return build();
  if (!offNeeded && names.every((name) => o.pluginConfigurations?.get(name) === undefined)) {
    // Nothing to read that could fail (no configuration): built at the first admission, off the start's path.
    // The informers its plugins would ask for as they are built are asked for now, in their order.
    for (const name of names)
      for (const [group, resource] of defaultOnListers(name, deps.profile)) deps.lister(group, resource);
    return new DeferredAdmissionChain(names, () => defaultOnPlugins.load().then(build), metrics);
  }
  // A caller that did not load them first: the chain loads them and builds itself before its first use.
  const loading = Promise.all([
    defaultOnNeeded ? defaultOnPlugins.load() : undefined,
    offNeeded ? offByDefaultPlugins.load() : undefined,
  ]);
  return new DeferredAdmissionChain(names, loading.then(build), metrics);
}

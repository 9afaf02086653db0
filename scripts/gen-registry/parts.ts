/**
 * Which built-in definitions the worker's start carries and which wait in a
 * lazy script (decision 0134). The start path keeps what a first screen and
 * the start's own writes read: the core group's kinds (namespaces, service
 * accounts, the lists a first screen shows), meta and the other apimachinery
 * types every answer uses, and the CRD kinds (the CRD registrar builds custom
 * resources' types at start from a store holding CRDs). Every other group's
 * definitions are written apart, loaded by the first request that may need
 * them (server/pipeline.ts). The start-path part refers to no definition of
 * the other part (generated.test.ts checks it), so it resolves on its own.
 */

const START_PATH_PREFIXES = ['api.core.v1.', 'apimachinery.', 'apiextensions-apiserver.'];

/** Whether a definition (by its generated name) is part of the worker's start path. */
export function isStartPathDefinition(name: string): boolean {
  return START_PATH_PREFIXES.some((prefix) => name.startsWith(prefix));
}

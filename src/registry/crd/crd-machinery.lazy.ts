/**
 * The CRD machinery a store without CRDs never needs: a CRD's validation on
 * create and update (names, versions, conversion, each version's schema:
 * structural, OpenAPI subset, defaults, CEL rules' cost) and the builder of
 * its served resources (schema facts: pruning, defaulting, value and rule
 * validation). Loaded by the CRD strategy before a CRD write and by the
 * registrar when a CRD is stored, never on the path to the worker's first
 * response on such a store (decision 0070).
 */

export { validateCrdCreate, validateCrdUpdate } from './validate-crd';
export { ResourceBuilder } from './resource-types';

/**
 * A CustomResourceDefinition's validation on create and update (its names,
 * versions, conversion, and each version's schema: structural, OpenAPI
 * subset, defaults, CEL rules' cost): loaded by the CRD strategy before the
 * first CRD write, never on the path to the worker's first response
 * (decision 0073). Serving custom resources does not need it.
 */

export { validateCrdCreate, validateCrdUpdate } from './validate-crd';

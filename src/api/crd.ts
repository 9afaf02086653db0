/**
 * The CustomResourceDefinition (apiextensions v1) as it travels on the
 * wire, typed loosely enough to read user input that may be wrong.
 */

import type { JsonObject, KubeObject } from './meta';

export interface CrdNames {
  plural?: string;
  singular?: string;
  kind?: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface CrdColumn {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

export interface CrdScale {
  specReplicasPath?: string;
  statusReplicasPath?: string;
  labelSelectorPath?: string;
}

export interface CrdSubresources {
  status?: JsonObject;
  scale?: CrdScale;
}

export interface CrdVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JsonObject };
  subresources?: CrdSubresources;
  additionalPrinterColumns?: CrdColumn[];
}

export interface CrdWebhookClientConfig {
  url?: string;
  service?: { namespace?: string; name?: string; path?: string; port?: number };
  caBundle?: string;
}

export interface CrdConversion {
  strategy?: string;
  webhook?: { clientConfig?: CrdWebhookClientConfig; conversionReviewVersions?: string[] };
}

export interface CrdSpec {
  group?: string;
  names?: CrdNames;
  scope?: string;
  versions?: CrdVersion[];
  conversion?: CrdConversion;
  preserveUnknownFields?: boolean;
}

export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface CrdStatus {
  acceptedNames?: CrdNames;
  conditions?: CrdCondition[];
  storedVersions?: string[];
}

export interface CustomResourceDefinition extends KubeObject {
  spec?: CrdSpec;
  status?: CrdStatus;
}

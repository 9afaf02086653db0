/**
 * Hand-written v1.27 facts that the upstream OpenAPI documents do not carry:
 * discovery short names and categories, which beta group/versions are served
 * by default, the order of groups in discovery, the meta kinds (Table,
 * PartialObjectMetadata) that have no OpenAPI definition, and the few v1.27
 * facts that v1.28 removed. Values follow the v1.27 API server's REST storage
 * (`ShortNames()`, `Categories()`), its default resource config, the
 * aggregator's group priorities and the v1.27 Go types. Group names are
 * neutral bases (see `names.ts`).
 */

import type { DefinitionSet, SchemaNode } from '../../src/machinery/schema';
import type { GeneratedSubresource } from '../../src/registry/generated/format';

export const RELEASE = 'v1.27';

export interface DiscoveryExtras {
  shortNames?: string[];
  categories?: string[];
}

const ALL = ['all'];
const API_EXTENSIONS = ['api-extensions'];

/**
 * Short names and categories by `<neutral group>/<resource>`; they hold for
 * every served version of the resource. Resources absent here have neither.
 * The generator fails when an entry matches no generated resource.
 */
export const DISCOVERY_EXTRAS: Readonly<Record<string, DiscoveryExtras>> = {
  '/componentstatuses': { shortNames: ['cs'] },
  '/configmaps': { shortNames: ['cm'] },
  '/endpoints': { shortNames: ['ep'] },
  '/events': { shortNames: ['ev'] },
  '/limitranges': { shortNames: ['limits'] },
  '/namespaces': { shortNames: ['ns'] },
  '/nodes': { shortNames: ['no'] },
  '/persistentvolumeclaims': { shortNames: ['pvc'] },
  '/persistentvolumes': { shortNames: ['pv'] },
  '/pods': { shortNames: ['po'], categories: ALL },
  '/replicationcontrollers': { shortNames: ['rc'], categories: ALL },
  '/resourcequotas': { shortNames: ['quota'] },
  '/serviceaccounts': { shortNames: ['sa'] },
  '/services': { shortNames: ['svc'], categories: ALL },
  'admissionregistration/mutatingwebhookconfigurations': { categories: API_EXTENSIONS },
  'admissionregistration/validatingwebhookconfigurations': { categories: API_EXTENSIONS },
  'admissionregistration/validatingadmissionpolicies': { categories: API_EXTENSIONS },
  'admissionregistration/validatingadmissionpolicybindings': { categories: API_EXTENSIONS },
  'apiextensions/customresourcedefinitions': { shortNames: ['crd', 'crds'], categories: API_EXTENSIONS },
  'apiregistration/apiservices': { categories: API_EXTENSIONS },
  'apps/daemonsets': { shortNames: ['ds'], categories: ALL },
  'apps/deployments': { shortNames: ['deploy'], categories: ALL },
  'apps/replicasets': { shortNames: ['rs'], categories: ALL },
  'apps/statefulsets': { shortNames: ['sts'], categories: ALL },
  'autoscaling/horizontalpodautoscalers': { shortNames: ['hpa'], categories: ALL },
  'batch/cronjobs': { shortNames: ['cj'], categories: ALL },
  'batch/jobs': { categories: ALL },
  'certificates/certificatesigningrequests': { shortNames: ['csr'] },
  'events/events': { shortNames: ['ev'] },
  'networking/clustercidrs': { shortNames: ['cc'] },
  'networking/ingresses': { shortNames: ['ing'] },
  'networking/ipaddresses': { shortNames: ['ip'] },
  'networking/networkpolicies': { shortNames: ['netpol'] },
  'policy/poddisruptionbudgets': { shortNames: ['pdb'] },
  'scheduling/priorityclasses': { shortNames: ['pc'] },
  'storage/storageclasses': { shortNames: ['sc'] },
};

/**
 * Beta group/versions v1.27 serves without `--runtime-config`: the ones that
 * predate the "new betas are off" policy (v1.24) and were still served.
 * Every stable version is on; every alpha and every other beta is off.
 */
export const BETA_ENABLED_BY_DEFAULT: ReadonlySet<string> = new Set([
  'flowcontrol.apiserver/v1beta2',
  'flowcontrol.apiserver/v1beta3',
]);

/**
 * Order of groups in discovery (`/apis`): the aggregator's own group first,
 * then by descending group priority, ties by name. Core is listed first here
 * although it is served under `/api`.
 */
export const GROUP_ORDER: readonly string[] = [
  '',
  'apiregistration',
  'apps',
  'events',
  'authentication',
  'authorization',
  'autoscaling',
  'batch',
  'certificates',
  'networking',
  'policy',
  'rbac.authorization',
  'storage',
  'admissionregistration',
  'apiextensions',
  'scheduling',
  'coordination',
  'node',
  'discovery',
  'flowcontrol.apiserver',
  'internal.apiserver',
  'resource',
];

/**
 * Definitions kept although no v1.27 protobuf message backs them: they are
 * only ever served as JSON.
 */
export const JSON_ONLY_DEFINITIONS: ReadonlySet<string> = new Set(['apimachinery.pkg.version.Info']);

const META = 'apimachinery.pkg.apis.meta.v1.';
const metaGvk = (kind: string) => [{ group: 'meta', groupSuffixed: true, version: 'v1', kind }];
const str = { type: 'string' } as const;

/**
 * The meta kinds that the upstream OpenAPI documents leave out because the
 * server produces them only on request (`as=Table`, `as=PartialObjectMetadata`).
 * Shapes follow the Go types of apimachinery meta/v1.
 */
export const META_DEFINITIONS: DefinitionSet = {
  [`${META}Table`]: {
    type: 'object',
    required: ['columnDefinitions', 'rows'],
    properties: {
      apiVersion: str,
      kind: str,
      metadata: { ref: `${META}ListMeta`, default: {} },
      columnDefinitions: { type: 'array', items: { ref: `${META}TableColumnDefinition`, default: {} } },
      rows: { type: 'array', items: { ref: `${META}TableRow`, default: {} } },
    },
    gvk: metaGvk('Table'),
  },
  [`${META}TableColumnDefinition`]: {
    type: 'object',
    required: ['name', 'type', 'format', 'description', 'priority'],
    properties: {
      name: str,
      type: str,
      format: str,
      description: str,
      priority: { type: 'integer', format: 'int32' },
    },
  },
  [`${META}TableRow`]: {
    type: 'object',
    required: ['cells'],
    properties: {
      // Cells hold any JSON value (string, number, boolean, object).
      cells: { type: 'array', items: {} },
      conditions: { type: 'array', items: { ref: `${META}TableRowCondition`, default: {} } },
      object: { ref: 'apimachinery.pkg.runtime.RawExtension' },
    },
  },
  [`${META}TableRowCondition`]: {
    type: 'object',
    required: ['type', 'status'],
    properties: { type: str, status: str, reason: str, message: str },
  },
  [`${META}PartialObjectMetadata`]: {
    type: 'object',
    properties: { apiVersion: str, kind: str, metadata: { ref: `${META}ObjectMeta`, default: {} } },
    gvk: metaGvk('PartialObjectMetadata'),
  },
  [`${META}PartialObjectMetadataList`]: {
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: str,
      kind: str,
      metadata: { ref: `${META}ListMeta`, default: {} },
      items: { type: 'array', items: { ref: `${META}PartialObjectMetadata`, default: {} } },
    },
    gvk: metaGvk('PartialObjectMetadataList'),
  },
};

/**
 * Go's field order of the definitions no protobuf message describes (see
 * `field-order.ts`), from their Go types: meta/v1 `Table` and its parts, and
 * `version.Info`. TypeMeta's `kind` and `apiVersion` come first.
 */
export const GO_FIELD_ORDER_WITHOUT_MESSAGE: Readonly<Record<string, string[]>> = {
  [`${META}Table`]: ['kind', 'apiVersion', 'metadata', 'columnDefinitions', 'rows'],
  [`${META}TableColumnDefinition`]: ['name', 'type', 'format', 'description', 'priority'],
  [`${META}TableRow`]: ['cells', 'conditions', 'object'],
  [`${META}TableRowCondition`]: ['type', 'status', 'reason', 'message'],
  'apimachinery.pkg.version.Info': [
    'major',
    'minor',
    'gitVersion',
    'gitCommit',
    'gitTreeState',
    'buildDate',
    'goVersion',
    'compiler',
    'platform',
  ],
};

/*
 * v1.27 facts that v1.28 removed, so the v1.28 OpenAPI documents lack them:
 * the alpha NetworkPolicy status (field, type and subresource) and the alpha
 * PersistentVolumeClaim `status.resizeStatus`. The v1.27 protobuf messages
 * confirm every field: the generator fails when one has no message field.
 * Markers follow the v1.27 Go types.
 */

/** Properties added to upstream definitions before the protobuf intersection. */
export const V127_ONLY_PROPERTIES: Readonly<Record<string, Record<string, SchemaNode>>> = {
  'api.core.v1.PersistentVolumeClaimStatus': { resizeStatus: str },
  'api.networking.v1.NetworkPolicy': {
    status: { ref: 'api.networking.v1.NetworkPolicyStatus', default: {} },
  },
};

/** Definitions added beside the upstream ones; each must have a v1.27 protobuf message. */
export const V127_ONLY_DEFINITIONS: DefinitionSet = {
  'api.networking.v1.NetworkPolicyStatus': {
    type: 'object',
    properties: {
      conditions: {
        type: 'array',
        items: { ref: `${META}Condition`, default: {} },
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
      },
    },
  },
};

/** Subresources added by `<neutral group>/<version>/<resource>`. */
export const V127_ONLY_SUBRESOURCES: Readonly<Record<string, GeneratedSubresource[]>> = {
  'networking/v1/networkpolicies': [
    {
      name: 'status',
      kind: 'NetworkPolicy',
      verbs: ['get', 'patch', 'update'],
      definition: 'api.networking.v1.NetworkPolicy',
    },
  ],
};

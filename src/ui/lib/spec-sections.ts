/**
 * The spec sections as the "Spec sections" page and the lessons show them:
 * where each is in its document and what it says, in our own words. Error
 * explanations (explanations.ts, in the first screen's bundle) name only
 * the document and heading of the sections they cite; everything else —
 * the sections only lessons cite, every summary — stays in the lazy views
 * that show it.
 */

import { specSections, type SpecSectionTitle } from './explanations';

/** A section of the spec documents, which are not shipped: the in-app "Spec sections" page lists these anchors. */
export interface SpecSection extends SpecSectionTitle {
  /** The section's heading path in its document, for finding it there. */
  path: string;
  /** What the section says, in one or two sentences of our own. */
  summary: string;
}

/** Where the sections error explanations cite are, and what they say. */
const citedDetails = {
  'core-object-envelope': {
    path: 'Resources and their fields › Object envelope',
    summary:
      'Every object has kind, apiVersion and metadata. A name is unique per kind within a namespace (or across the cluster for cluster-scoped kinds); uid and creationTimestamp are set by the server; resourceVersion is the opaque version of the object as stored.',
  },
  'core-field-validation': {
    path: 'Endpoints › Field validation',
    summary:
      'Field types are always validated and omitting a required field is an error. Unknown or duplicate fields are dropped (Ignore), dropped with a Warning header (Warn, the default) or rejected with 400 (Strict), as fieldValidation says.',
  },
  'core-content-negotiation': {
    path: 'Endpoints › Content negotiation',
    summary:
      'Responses are JSON unless Accept asks otherwise; a request body in another format needs a matching Content-Type (YAML, Protobuf, the patch types).',
  },
  'core-resource-version-semantics': {
    path: 'Endpoints › Resource version semantics',
    summary:
      'Resource versions are opaque: pass them back unchanged and compare them only for equality. A write that carries one succeeds only if the object is still at that version.',
  },
  'core-watching': {
    path: 'Endpoints › Watching',
    summary:
      'A watch continues from a resourceVersion. History is kept for a limited time; from an older version the answer is 410 Gone, and the client clears its cache, lists again and watches from the new version.',
  },
  'core-server-side-apply': {
    path: 'Endpoints › Server-side apply',
    summary:
      'Apply records who owns each field. Applying a different value to a field another manager owns conflicts; the ways out are force, dropping the field, or taking the server’s value (shared ownership).',
  },
  'core-states-and-transitions': {
    path: 'States and transitions',
    summary:
      'Deletion sets deletionTimestamp; the object goes when its last finalizer does. A namespaced object lives in its namespace and is deleted with it.',
  },
  'core-errors': {
    path: 'Errors',
    summary:
      'Which conditions answer 400, 406, 410 and 504, and the other signals: Warning and Retry-After headers.',
  },
  'auth-errors': {
    path: 'Errors',
    summary:
      'Invalid credentials answer 401; a caller without the right gets a Forbidden error naming the user and the action; webhook denials carry the webhook’s code and message.',
  },
} as const satisfies Record<keyof typeof specSections, Omit<SpecSection, keyof SpecSectionTitle>>;

const courseSpecSections = {
  'core-path-shapes': {
    document: 'Core Interface',
    section: 'Path shapes',
    path: 'Endpoints › Path shapes',
    summary:
      'The core group lives under /api/v1, every other group under /apis/<group>/<version>. Namespaced resources add /namespaces/<ns>; a name and a subresource follow the resource. Discovery documents at these paths list what is served.',
  },
  'core-verbs': {
    document: 'Core Interface',
    section: 'Verbs',
    path: 'Endpoints › Verbs',
    summary:
      'get, list and watch are GETs; create is a POST to a collection; update a PUT; patch and apply are PATCHes whose Content-Type names the patch format; delete and deletecollection are DELETEs.',
  },
  'core-listing-in-pages': {
    document: 'Core Interface',
    section: 'Listing in pages',
    path: 'Endpoints › Listing in pages',
    summary:
      'A list with limit returns at most that many items and a continue token while more remain; every page carries the same resourceVersion, and the last page’s continue is empty. Expired tokens answer 410.',
  },
  'core-dry-run': {
    document: 'Core Interface',
    section: 'Dry run',
    path: 'Endpoints › Dry run',
    summary:
      'With dryRun=All a write runs every stage (admission, defaulting, validation) and answers with the object it would store, but stores nothing; authorization is the same as for the real request.',
  },
  'core-cel': {
    document: 'Core Interface',
    section: 'Expression rules',
    path: 'Resources and their fields › Expression rules (Common Expression Language)',
    summary:
      'Validation rules in CEL run inside the server with self and oldSelf; schema types map to CEL types, and the server estimates each rule’s worst-case cost and limits it at runtime.',
  },
  'core-limits': {
    document: 'Core Interface',
    section: 'Limits',
    path: 'Limits',
    summary:
      'How long watch history and continue tokens last, what expressions cost (a comparison 1 unit, a list literal 40, a regex by its length times the input’s), and the beta API lifetimes.',
  },
  'core-versioning': {
    document: 'Core Interface',
    section: 'Versioning',
    path: 'Versioning',
    summary:
      'Alpha versions are off by default, beta ones have a limited life, stable ones stay. Deprecated endpoints answer with a Warning header; removed versions are no longer served, and each has a replacement.',
  },
  'core-health': {
    document: 'Core Interface',
    section: 'Health endpoints',
    path: 'Endpoints › Health endpoints',
    summary:
      '/livez and /readyz (and the deprecated /healthz) answer 200 when healthy; ?verbose lists each named check, ?exclude=<check> leaves one out; /metrics exposes counters.',
  },
  'auth-authentication': {
    document: 'Authentication and Admission',
    section: 'Authentication',
    path: 'Authentication',
    summary:
      'Requests are authenticated by client certificate, bearer token (static, bootstrap, service account, OIDC, webhook) or an authenticating proxy; a request with no credentials is anonymous (system:anonymous).',
  },
  'auth-impersonation': {
    document: 'Authentication and Admission',
    section: 'Impersonation',
    path: 'Authentication › Impersonation',
    summary:
      'A caller holding the impersonate verb may act as another user, groups or uid with the Impersonate-* headers; authorization then runs on the impersonated identity.',
  },
  'auth-admission': {
    document: 'Authentication and Admission',
    section: 'Built-in admission controllers',
    path: 'What the service does › Built-in admission controllers',
    summary:
      'Writes pass admission: built-in plugins (PodSecurity, LimitRanger, ResourceQuota, ServiceAccount, …) and dynamic webhooks that mutate or validate the object before it is stored.',
  },
  'auth-webhooks': {
    document: 'Authentication and Admission',
    section: 'Webhook configuration',
    path: 'Resources and their fields › Webhook configuration',
    summary:
      'Validating and mutating webhook configurations name rules, selectors, a client config, failure policy and side effects; the server sends an AdmissionReview and follows the answer.',
  },
  'auth-service-accounts': {
    document: 'Authentication and Admission',
    section: 'Service account and tokens',
    path: 'Resources and their fields › Service account and tokens',
    summary:
      'A ServiceAccount gives workloads an identity (system:serviceaccount:<ns>:<name>); short-lived tokens come from the token subresource, legacy ones from a token Secret the control plane fills.',
  },
  'auth-csr': {
    document: 'Authentication and Admission',
    section: 'CertificateSigningRequest',
    path: 'Resources and their fields › CertificateSigningRequest',
    summary:
      'A CSR asks a named signer for a certificate; it is approved or denied through the approval subresource by someone allowed to approve for that signer, then the signer issues it into status.certificate.',
  },
  'auth-bootstrap': {
    document: 'Authentication and Admission',
    section: 'Bootstrap token secret',
    path: 'Resources and their fields › Bootstrap token secret',
    summary:
      'A bootstrap token is a Secret in the system namespace; used as a bearer token it authenticates as system:bootstrap:<id>, and the bootstrap signer signs the public cluster-info ConfigMap with it.',
  },
} as const satisfies Record<string, SpecSection>;

const cited = Object.fromEntries(
  (Object.keys(specSections) as (keyof typeof specSections)[]).map((id) => [
    id,
    { ...specSections[id], ...citedDetails[id] },
  ]),
) as Record<keyof typeof specSections, SpecSection>;

/** Every section the app can link to. */
export const allSpecSections: Record<
  keyof typeof specSections | keyof typeof courseSpecSections,
  SpecSection
> = { ...cited, ...courseSpecSections };

export type AnySpecSectionId = keyof typeof allSpecSections;

/** The link text for any section: "Spec: Core Interface › Field validation". */
export function anySpecLinkText(id: AnySpecSectionId): string {
  const s: SpecSection = allSpecSections[id];
  return `Spec: ${s.document} › ${s.section}`;
}

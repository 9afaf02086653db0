/**
 * The lesson format: what a built-in lesson module exports and what an
 * instructor writes in YAML or JSON (`kind: Lesson`). A lesson has a title,
 * a goal, short sections of text citing the in-app spec sections, an
 * optional starting state in its own namespaces, and steps. A step says what
 * to do and where (links that open a view ready), declares checks — what to
 * read and a CEL expression over it — hints, and "Show me": the requests the
 * step takes, sent the way a learner would send them. Names are written in
 * the `orch` profile's spelling; the engine translates them for the profile
 * in use (localize.ts). `lesson.schema.json` is the same format as a JSON
 * Schema; docs/lessons.md documents both.
 */

import type { KubeObject } from '../api/meta';

export const LESSON_API_VERSION = 'sandbox.orch.io/v1';
export const LESSON_KIND = 'Lesson';

/** A built-in identity the sandbox lists (`admin`, `alice`, `service-account`) or `anonymous` (no credentials). */
export type IdentityName = string;

export interface LessonDocument {
  apiVersion: typeof LESSON_API_VERSION;
  kind: typeof LESSON_KIND;
  /** A DNS label; the lesson page is `#/learn/<id>`. */
  id: string;
  title: string;
  /** The heading `#/learn` groups the lesson under; instructors' lessons default to "Your lessons". */
  part?: string;
  /** About how long the lesson takes, in minutes. */
  minutes?: number;
  /** One sentence: what the learner can do afterwards. */
  goal: string;
  sections: LessonSection[];
  start?: LessonStart;
  /** Cluster-scoped objects the learner creates in this lesson, removed by "Reset lesson" (namespaces go whole). */
  cleanup?: ObjectReference[];
  steps: LessonStep[];
}

export interface LessonSection {
  title?: string;
  /** Paragraphs separated by blank lines; `code` in backticks, [links](#/view?params) to the app. */
  text: string;
  /** In-app spec sections this text is about (`#/spec?section=<id>`). */
  spec?: string[];
}

export interface LessonStart {
  /** Created when missing, labelled with the lesson; "Reset lesson" deletes them. The first is the lesson's own. */
  namespaces?: string[];
  /** Created in order (namespaced objects without a namespace land in the first namespace). */
  objects?: KubeObject[];
  /** Admission plugins to turn on (never off); Start asks first, since the settings are the whole sandbox's. */
  enableAdmissionPlugins?: string[];
  /** Who the app acts as once the lesson starts. */
  identity?: IdentityName;
}

/** An object by apiVersion, plural resource name, namespace and name. */
export interface ObjectReference {
  apiVersion: string;
  resource: string;
  namespace?: string;
  name: string;
}

export interface LessonStep {
  /** A DNS label, unique in the lesson. */
  id: string;
  title: string;
  /** What to do, in the format of a section's text. */
  text: string;
  /** Who the step is done as; "Show me" sends as this identity, and the step offers to switch to it. */
  identity?: IdentityName;
  /** Views opened ready for the step. */
  open?: ViewLink[];
  hints?: string[];
  /** All must hold for the step to be done. */
  checks: LessonCheck[];
  /** The step done by the app, the way a learner would do it. */
  showMe: ShowMeAction[];
}

export type ViewName =
  | 'explorer'
  | 'editor'
  | 'watch'
  | 'console'
  | 'lab'
  | 'workshop'
  | 'identity'
  | 'traces'
  | 'webhooks'
  | 'server'
  | 'spec'
  | 'terminal';

/** A link that opens a view with its parameters (`#/<view>?<params>`); `terminal` takes `command`. */
export interface ViewLink {
  view: ViewName;
  params?: Record<string, string>;
  label: string;
}

export interface LessonCheck {
  /** What holds once the step is done, as the step shows it ("The ConfigMap holds answer: 42"). */
  description: string;
  read: CheckRead;
  /** A CEL expression over the read's variables that is true once the step is done. */
  expect: string;
}

/**
 * What a check reads, and the CEL variables it binds:
 * - `object`: one object (`object`, null when it does not exist);
 * - `list`: a collection's items (`items`);
 * - `http`: a GET of any path (`response`: `status`, `headers`, `body`);
 * - `requests`: the requests the app sent since the lesson started (`requests`);
 * - `trace`: the admission trace of the learner's last write (`trace`, null before any);
 * - `watch`: the events the Watch inspector received since the lesson started (`events`);
 * - `access`: whether a user may do something, asked with a SubjectAccessReview (`allowed`, `reason`).
 * Object, list and http reads are sent as `as` (default `admin`).
 */
export type CheckRead =
  | { object: ObjectReference; as?: IdentityName }
  | { list: CollectionReference; as?: IdentityName }
  | { http: { path: string }; as?: IdentityName }
  | { requests: Record<string, never> }
  | { trace: { pathContains?: string } }
  | { watch: Record<string, never> }
  | { access: AccessQuestion };

export interface CollectionReference {
  apiVersion: string;
  resource: string;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

export interface AccessQuestion {
  user: string;
  groups?: string[];
  verb: string;
  /** Empty for the core group. */
  group?: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

/**
 * One thing "Show me" does:
 * - `request`: one HTTP request (as the step's identity unless `as` says otherwise, or, with `withCertificate`,
 *   as whoever that client certificate names); `expectStatus` lists the statuses that count as the step going as
 *   planned (default: any 2xx); `capture` names CEL expressions over `response` whose values later actions use
 *   as `${name}`;
 * - `watch`: opens the Watch inspector on a collection path with its query, and waits for `waitFor` (a CEL
 *   expression over `events`) when given.
 */
export type ShowMeAction =
  | {
      request: HttpRequest;
      as?: IdentityName;
      /**
       * Sent without the identity's credentials, authenticated by this client certificate instead: PEM texts
       * (the certificate may also be base64 of its PEM, as a CertificateSigningRequest's `status.certificate`
       * holds it; `${name}` allowed), the way the Identity view's "use as identity" sends.
       */
      withCertificate?: { certificate: string; key: string };
      expectStatus?: number[];
      capture?: Record<string, string>;
    }
  | { watch: WatchRequest; as?: IdentityName; waitFor?: string };

export interface HttpRequest {
  method: string;
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Sent as JSON unless it is a string (YAML for apply). */
  body?: unknown;
  contentType?: string;
  accept?: string;
}

export interface WatchRequest {
  /** A collection path: `/api/v1/namespaces/<ns>/configmaps`. */
  path: string;
  query?: Record<string, string>;
  /** List first and watch from the list's resourceVersion, as the inspector's default start does. */
  listFirst?: boolean;
  /** On 410 Gone, list again and watch from the new version. */
  relistOnGone?: boolean;
}

/** The variables each read binds, for compiling its check. */
export function variablesOf(read: CheckRead): string[] {
  if ('object' in read) return ['object'];
  if ('list' in read) return ['items'];
  if ('http' in read) return ['response'];
  if ('requests' in read) return ['requests'];
  if ('trace' in read) return ['trace'];
  if ('watch' in read) return ['events'];
  return ['allowed', 'reason'];
}

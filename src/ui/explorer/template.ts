/**
 * Starting points for new objects, one per served kind: the explorer's
 * Create panel and the editor's template picker both start from here, so a
 * first-time user's first press of Create succeeds for every kind. Kinds
 * with required fields get the smallest valid body (a Pod gets a container,
 * a CertificateSigningRequest a real PKCS#10 request); the rest get the bare
 * envelope. Templates are plain YAML text built without a YAML library or
 * the DOM, so the explorer's first screen stays small and the template test
 * (test/templates.test.ts) can import this module in Node.
 */

import type { ResourceChoice } from '../lib/resource-choice';

/** What a template's body may depend on: the namespace shown and the naming profile's domains. */
interface TemplateContext {
  namespace: string;
  /** The chosen kind's group, so references to sibling kinds use the same profile (`rbac.authorization.orch.io`). */
  group: string;
  /** Domain of product-owned names, e.g. `orch.io` (upstream `kubernetes.io`): signer names use it. */
  labelDomain: string;
}

/** A template beyond the bare envelope: its `metadata` lines (when not the default name) and its body lines. */
interface TemplateBody {
  /**
   * The metadata block. `named` (the default) is `name: example` plus the namespace for namespaced kinds;
   * `none` leaves metadata out (access reviews refuse any metadata); a list gives the lines verbatim.
   */
  metadata?: 'named' | 'none' | ((ctx: TemplateContext) => string[]);
  body: (ctx: TemplateContext) => string[];
}

const podSpec = (indent: string): string[] =>
  ['containers:', '- name: app', '  image: nginx:1.26'].map((line) => indent + line);

/** The labelled pod template every workload controller needs, with its matching selector. */
const workload = (extra: string[] = []): TemplateBody => ({
  body: () => [
    'spec:',
    ...extra.map((line) => `  ${line}`),
    '  selector:',
    '    matchLabels:',
    '      app: example',
    '  template:',
    '    metadata:',
    '      labels:',
    '        app: example',
    '    spec:',
    ...podSpec('      '),
  ],
});

const resourceAttributes = (ns: string): string[] => [
  '  resourceAttributes:',
  `    namespace: ${ns}`,
  '    verb: get',
  '    resource: configmaps',
];

const roleBinding: TemplateBody = {
  body: (ctx) => [
    'roleRef:',
    `  apiGroup: ${ctx.group}`,
    '  kind: ClusterRole',
    '  name: view',
    'subjects:',
    '- kind: User',
    `  apiGroup: ${ctx.group}`,
    '  name: jane',
  ],
};

/**
 * A PKCS#10 request for `CN=example, O=sandbox-users` (P-256, made with `openssl req -new`), base64 as
 * `spec.request` wants it. Its private key was thrown away: the sandbox never needs it, and nobody can
 * use a certificate issued for it.
 */
const exampleCsr =
  'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIbU1JR01BZ0VBTUNveEVEQU9CZ05WQkFNTUIyVjRZVzF3YkdVeEZqQVVCZ05WQkFvTURYTmhibVJpYjNndApkWE5sY25Nd1dUQVRCZ2NxaGtqT1BRSUJCZ2dxaGtqT1BRTUJCd05DQUFRUUI1MXVDME8vZXNZcytPRk9OdS9NCklWSnRUTUhPaDdTdWR6YTh0cFBZTXdiOFFsNU1DcmEvS2UzOUMxNWRVUHhvbEZjRjJGUkxWbFduZGZITVZlQzAKb0FBd0NnWUlLb1pJemowRUF3SURTUUF3UmdJaEFQS2p5R3kzMm9MY1E3dFQ3WkR4Tm9sMlRhSkhwcmpFSkpJZgpFZEp3c21wbUFpRUEvQnhVSUJpSHlkc2RiU3hxSDBtUGZud29CR0UvMk1ScnprZWhwc0YveDcwPQotLS0tLUVORCBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K';

/**
 * Bodies by `<group's first label>/<resource>` (`core` for the core group), so one entry serves every
 * version of a kind and both naming profiles (`certificates.orch.io` and `certificates.k8s.io`).
 */
const bodies: Record<string, TemplateBody> = {
  'core/pods': { body: () => ['spec:', ...podSpec('  ')] },
  // A binding is named after the pod it schedules: create the Pod template (`example`) first.
  'core/bindings': { body: () => ['target:', '  apiVersion: v1', '  kind: Node', '  name: example'] },
  'core/events': {
    body: (ctx) => [
      'involvedObject:',
      '  apiVersion: v1',
      '  kind: ConfigMap',
      '  name: example',
      `  namespace: ${ctx.namespace}`,
      'reason: Example',
      'message: An example event',
      'type: Normal',
    ],
  },
  // A ReplicationController selects by a plain map (its template's labels when omitted).
  'core/replicationcontrollers': {
    body: () => [
      'spec:',
      '  replicas: 1',
      '  selector:',
      '    app: example',
      '  template:',
      '    metadata:',
      '      labels:',
      '        app: example',
      '    spec:',
      ...podSpec('      '),
    ],
  },
  'apps/deployments': workload(['replicas: 1']),
  'apps/replicasets': workload(['replicas: 1']),
  'apps/daemonsets': workload(),
  'apps/statefulsets': workload(['replicas: 1', 'serviceName: example']),
  'apps/controllerrevisions': { body: () => ['revision: 1', 'data:', '  note: an example revision'] },
  'events/events': {
    body: (ctx) => [
      // A fixed time keeps the template text stable (the panels reset when it changes).
      'eventTime: "2024-01-01T00:00:00.000000Z"',
      `reportingController: ${ctx.labelDomain}/sandbox`,
      'reportingInstance: sandbox-1',
      'action: Created',
      'reason: Example',
      'type: Normal',
      'note: An example event',
      'regarding:',
      '  apiVersion: v1',
      '  kind: ConfigMap',
      '  name: example',
      `  namespace: ${ctx.namespace}`,
    ],
  },
  'authentication/tokenreviews': { metadata: 'none', body: () => ['spec:', '  token: not-a-real-token'] },
  'authentication/selfsubjectreviews': { metadata: 'none', body: () => [] },
  'authorization/subjectaccessreviews': {
    metadata: 'none',
    body: (ctx) => ['spec:', '  user: jane', ...resourceAttributes(ctx.namespace)],
  },
  'authorization/selfsubjectaccessreviews': {
    metadata: 'none',
    body: (ctx) => ['spec:', ...resourceAttributes(ctx.namespace)],
  },
  'authorization/localsubjectaccessreviews': {
    metadata: (ctx) => [`  namespace: ${ctx.namespace}`],
    body: (ctx) => ['spec:', '  user: jane', ...resourceAttributes(ctx.namespace)],
  },
  'authorization/selfsubjectrulesreviews': {
    metadata: 'none',
    body: (ctx) => ['spec:', `  namespace: ${ctx.namespace}`],
  },
  'autoscaling/horizontalpodautoscalers': {
    body: () => [
      'spec:',
      '  scaleTargetRef:',
      '    apiVersion: apps/v1',
      '    kind: Deployment',
      '    name: example',
      '  minReplicas: 1',
      '  maxReplicas: 3',
    ],
  },
  'batch/jobs': {
    body: () => [
      'spec:',
      '  template:',
      '    spec:',
      '      restartPolicy: Never',
      '      containers:',
      '      - name: job',
      '        image: busybox:1.36',
      '        command: ["echo", "hello"]',
    ],
  },
  'batch/cronjobs': {
    body: () => [
      'spec:',
      '  schedule: "*/5 * * * *"',
      '  jobTemplate:',
      '    spec:',
      '      template:',
      '        spec:',
      '          restartPolicy: Never',
      '          containers:',
      '          - name: job',
      '            image: busybox:1.36',
      '            command: ["echo", "hello"]',
    ],
  },
  'certificates/certificatesigningrequests': {
    body: (ctx) => [
      'spec:',
      `  signerName: ${ctx.labelDomain}/apiserver-client`,
      '  usages:',
      '  - digital signature',
      '  - key encipherment',
      '  - client auth',
      '  expirationSeconds: 86400',
      `  request: ${exampleCsr}`,
    ],
  },
  'networking/networkpolicies': { body: () => ['spec:', '  podSelector: {}'] },
  'rbac/clusterrolebindings': roleBinding,
  'rbac/rolebindings': roleBinding,
  'storage/csinodes': { body: () => ['spec:', '  drivers: []'] },
  'storage/csistoragecapacities': { body: () => ['storageClassName: standard'] },
  'storage/storageclasses': { body: () => ['provisioner: example.com/sandbox'] },
  'storage/volumeattachments': {
    body: () => [
      'spec:',
      '  attacher: example.com/sandbox',
      '  nodeName: example',
      '  source:',
      '    persistentVolumeName: example',
    ],
  },
  'apiextensions/customresourcedefinitions': {
    // A definition's name must be `<plural>.<group>`, so this one cannot be called `example`.
    metadata: () => ['  name: widgets.example.com'],
    body: () => [
      'spec:',
      '  group: example.com',
      '  scope: Namespaced',
      '  names:',
      '    plural: widgets',
      '    singular: widget',
      '    kind: Widget',
      '  versions:',
      '  - name: v1',
      '    served: true',
      '    storage: true',
      '    schema:',
      '      openAPIV3Schema:',
      '        type: object',
      '        properties:',
      '          spec:',
      '            type: object',
      '            properties:',
      '              size:',
      '                type: integer',
    ],
  },
  'scheduling/priorityclasses': { body: () => ['value: 1000', 'description: An example priority'] },
  'node/runtimeclasses': { body: () => ['handler: runc'] },
  'discovery/endpointslices': {
    body: () => [
      'addressType: IPv4',
      'endpoints:',
      '- addresses: ["10.0.0.1"]',
      'ports:',
      '- name: http',
      '  port: 80',
      '  protocol: TCP',
    ],
  },
};

/** The table key of a kind: `core/pods`, `certificates/certificatesigningrequests`. */
export function templateKey(choice: ResourceChoice): string {
  const base = choice.group === '' ? 'core' : (choice.group.split('.')[0] ?? choice.group);
  return `${base}/${choice.resource.name}`;
}

/** The label domain of the profile a group belongs to: upstream groups end in `k8s.io`, their names in `kubernetes.io`. */
function labelDomainOf(group: string): string {
  return group === 'k8s.io' || group.endsWith('.k8s.io') ? 'kubernetes.io' : 'orch.io';
}

/** A starting point for the chosen kind, in `namespace` when the kind is namespaced. */
export function templateFor(choice: ResourceChoice | undefined, namespace: string): string {
  const ns = namespace === '*' ? 'default' : namespace;
  if (choice === undefined || (choice.group === '' && choice.resource.name === 'configmaps')) {
    return [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: example',
      `  namespace: ${ns}`,
      'data:',
      '  greeting: hello',
      '',
    ].join('\n');
  }
  const ctx: TemplateContext = {
    namespace: ns,
    group: choice.group,
    labelDomain: labelDomainOf(choice.group),
  };
  const entry = bodies[templateKey(choice)];
  const lines = [`apiVersion: ${choice.groupVersion}`, `kind: ${choice.resource.kind}`];
  const metadata = entry?.metadata ?? 'named';
  if (metadata === 'named') {
    lines.push('metadata:', '  name: example');
    if (choice.resource.namespaced) lines.push(`  namespace: ${ns}`);
  } else if (metadata !== 'none') {
    lines.push('metadata:', ...metadata(ctx));
  }
  if (entry !== undefined) lines.push(...entry.body(ctx));
  return `${lines.join('\n')}\n`;
}

/**
 * The template with a name no listed object has: `example`, else the first
 * free `example-N`. After a reload the list still holds the `example` made
 * last time, and Create must not start from a certain 409.
 */
export function withFreeName(text: string, taken: (name: string) => boolean): string {
  const match = /^metadata:\n(?: {2}.*\n)*? {2}name: example$/m.exec(text);
  if (match === null || !taken('example')) return text;
  let n = 2;
  while (taken(`example-${n}`)) n++;
  const named = match[0].replace(/name: example$/, `name: example-${n}`);
  return text.slice(0, match.index) + named + text.slice(match.index + match[0].length);
}

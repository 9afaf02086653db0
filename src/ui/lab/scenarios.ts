/**
 * Guided scenarios for the apply rules of the spec: a conflict, forcing
 * it, shared ownership, removal of fields a manager stops applying, and the
 * three list types (atomic, set, map). Each names its managers with their
 * first applied configurations and a list of steps, each an apply by one
 * manager (optionally with a new configuration first) and what the server
 * should answer.
 */

export interface ScenarioStep {
  manager: string;
  /** Replaces the manager's configuration before applying. */
  yaml?: string;
  force?: boolean;
  expect: 'ok' | 'conflict';
  /** After an ok: a field that should (or should not) be on the live object. */
  check?: { path: string; present: boolean };
  note: string;
}

export interface Scenario {
  id: string;
  title: string;
  rule: string;
  managers: { name: string; yaml: string }[];
  steps: ScenarioStep[];
}

const deployment = (name: string, spec: string) =>
  `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: default
${spec}`;

const fullDeployment = (name: string, containers: string, replicas = 2) =>
  deployment(
    name,
    `spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
${containers}`,
  );

const configMap = (name: string, body: string) =>
  `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: default
${body}`;

const app = `      - name: app
        image: nginx:1.25
`;

export const scenarios: Scenario[] = [
  {
    id: 'conflict',
    title: 'Conflict: two managers, one field',
    rule: 'When an apply changes a field that another manager owns with a different value, the apply fails with a conflict (409) naming the field and its manager.',
    managers: [
      { name: 'alice', yaml: fullDeployment('lab-web', app) },
      { name: 'bob', yaml: deployment('lab-web', 'spec:\n  replicas: 5\n') },
    ],
    steps: [
      {
        manager: 'alice',
        expect: 'ok',
        note: 'alice applies the whole Deployment and owns every field she sent, .spec.replicas among them.',
      },
      {
        manager: 'bob',
        expect: 'conflict',
        note: 'bob applies replicas: 5. alice owns .spec.replicas with another value, so the server answers 409. Resolve it with one of the three ways out under bob.',
      },
    ],
  },
  {
    id: 'force',
    title: 'Force: taking a field over',
    rule: 'Sending the apply again with force=true overwrites the value and removes the field from the other managers’ entries; a later apply by them conflicts in turn.',
    managers: [
      { name: 'alice', yaml: fullDeployment('lab-force', app) },
      { name: 'bob', yaml: deployment('lab-force', 'spec:\n  replicas: 5\n') },
    ],
    steps: [
      { manager: 'alice', expect: 'ok', note: 'alice applies the Deployment with replicas: 2.' },
      {
        manager: 'bob',
        force: true,
        expect: 'ok',
        check: { path: '.spec.replicas', present: true },
        note: 'bob forces replicas: 5 and now owns .spec.replicas alone.',
      },
      {
        manager: 'alice',
        expect: 'conflict',
        note: 'alice applies her unchanged configuration: replicas is bob’s now, so she conflicts with bob.',
      },
    ],
  },
  {
    id: 'shared',
    title: 'Shared ownership',
    rule: 'Applying the value a field already has makes its ownership shared; any later change to a shared field by any owner conflicts.',
    managers: [
      { name: 'alice', yaml: configMap('lab-shared', 'data:\n  color: blue\n  size: large\n') },
      { name: 'bob', yaml: configMap('lab-shared', 'data:\n  color: blue\n') },
    ],
    steps: [
      { manager: 'alice', expect: 'ok', note: 'alice applies color and size.' },
      {
        manager: 'bob',
        expect: 'ok',
        note: 'bob applies the same color: no conflict, color is now shared (both own it).',
      },
      {
        manager: 'bob',
        yaml: configMap('lab-shared', 'data:\n  color: green\n'),
        expect: 'conflict',
        note: 'bob changes the shared color to green: that conflicts with alice, its other owner.',
      },
    ],
  },
  {
    id: 'removal',
    title: 'Removing fields no longer applied',
    rule: 'Items a manager applied earlier and no longer sends are removed, unless another manager owns them.',
    managers: [
      { name: 'alice', yaml: configMap('lab-removal', 'data:\n  a: "1"\n  b: "2"\n') },
      { name: 'bob', yaml: configMap('lab-removal', 'data:\n  b: "2"\n') },
    ],
    steps: [
      { manager: 'alice', expect: 'ok', note: 'alice applies a and b.' },
      { manager: 'bob', expect: 'ok', note: 'bob applies b with the same value: b is shared.' },
      {
        manager: 'alice',
        yaml: configMap('lab-removal', 'data:\n  a: "1"\n'),
        expect: 'ok',
        check: { path: '.data.b', present: true },
        note: 'alice stops applying b. It stays: bob still owns it.',
      },
      {
        manager: 'bob',
        yaml: configMap('lab-removal', ''),
        expect: 'ok',
        check: { path: '.data.b', present: false },
        note: 'bob stops applying b too. Nobody owns it any more, so it is removed.',
      },
    ],
  },
  {
    id: 'atomic',
    title: 'List type atomic',
    rule: 'An atomic list is replaced as a whole and has one owner: changing any element conflicts with the list’s owner.',
    managers: [
      {
        name: 'alice',
        yaml: fullDeployment(
          'lab-atomic',
          `      - name: app\n        image: nginx:1.25\n        args: ["--port=80", "--verbose"]\n`,
        ),
      },
      {
        name: 'bob',
        yaml: deployment(
          'lab-atomic',
          'spec:\n  template:\n    spec:\n      containers:\n      - name: app\n        args: ["--port=8080"]\n',
        ),
      },
    ],
    steps: [
      {
        manager: 'alice',
        expect: 'ok',
        note: 'alice applies a container whose args list she owns as a whole.',
      },
      {
        manager: 'bob',
        expect: 'conflict',
        note: 'bob applies other args: the list is atomic, so it conflicts on the whole list, not on one element.',
      },
    ],
  },
  {
    id: 'set',
    title: 'List type set',
    rule: 'A set list holds unique scalars, and each manager owns the elements it applied: applies by different managers merge.',
    managers: [
      {
        name: 'alice',
        yaml: configMap('lab-set', '').replace(
          '  namespace: default\n',
          '  namespace: default\n  finalizers:\n  - example.com/alice\n',
        ),
      },
      {
        name: 'bob',
        yaml: configMap('lab-set', '').replace(
          '  namespace: default\n',
          '  namespace: default\n  finalizers:\n  - example.com/bob\n',
        ),
      },
    ],
    steps: [
      { manager: 'alice', expect: 'ok', note: 'alice applies her finalizer.' },
      {
        manager: 'bob',
        expect: 'ok',
        check: { path: '.metadata.finalizers[="example.com/alice"]', present: true },
        note: 'bob applies his: both stay, each owned by its manager.',
      },
      {
        manager: 'alice',
        yaml: configMap('lab-set', ''),
        expect: 'ok',
        check: { path: '.metadata.finalizers[="example.com/alice"]', present: false },
        note: 'alice stops applying hers: only her element goes; bob’s remains.',
      },
    ],
  },
  {
    id: 'map',
    title: 'List type map',
    rule: 'A map list is keyed (containers by name): each manager owns the items it applied, and fields inside them one by one.',
    managers: [
      { name: 'alice', yaml: fullDeployment('lab-map', app) },
      {
        name: 'bob',
        yaml: deployment(
          'lab-map',
          'spec:\n  template:\n    spec:\n      containers:\n      - name: sidecar\n        image: busybox:1.36\n',
        ),
      },
    ],
    steps: [
      { manager: 'alice', expect: 'ok', note: 'alice applies the Deployment with container app.' },
      {
        manager: 'bob',
        expect: 'ok',
        check: { path: '.spec.template.spec.containers[name="app"]', present: true },
        note: 'bob applies a second container, sidecar: the list merges by name, and both containers are there.',
      },
      {
        manager: 'bob',
        yaml: deployment(
          'lab-map',
          'spec:\n  template:\n    spec:\n      containers:\n      - name: sidecar\n        image: busybox:1.36\n      - name: app\n        image: nginx:1.26\n',
        ),
        expect: 'conflict',
        note: 'bob changes the image of alice’s container: that field is hers, so it conflicts.',
      },
    ],
  },
];

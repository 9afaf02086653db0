/**
 * The cluster-level built-in admission plugins over HTTP: NodeRestriction
 * (a node agent, impersonated as `system:node:n1` in `system:nodes`, writes
 * only its own Node, mirror pods, pod status, evictions, leases),
 * OwnerReferencesPermissionEnforcement (alice with and without delete and
 * finalizers rights), CertificateSubjectRestriction / CertificateApproval /
 * CertificateSigning (real PEM requests; alice with and without signer
 * rights), DefaultIngressClass and DefaultStorageClass (none, one, two
 * defaults — two refuse every creation, the seed's rule),
 * PersistentVolumeClaimResize, StorageObjectInUseProtection and
 * PersistentVolumeLabel. One host; the cases of each table run in order,
 * since later ones build on what earlier ones created or granted.
 */

import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type As, type TestHost, type TestResponse } from './support/host';
import { createTestCA } from './support/pki';

const node1 = { 'Impersonate-User': 'system:node:n1', 'Impersonate-Group': 'system:nodes' };
const merge = 'application/merge-patch+json';
const rbac = '/apis/rbac.authorization.orch.io/v1';
const csrs = '/apis/certificates.orch.io/v1/certificatesigningrequests';
const ns = 'adm';

interface Case {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** A function when the body depends on what earlier cases created. */
  body?: unknown;
  as?: As;
  headers?: Record<string, string>;
  contentType?: string;
  status: number;
  message?: string;
  check?: (body: Record<string, unknown>) => void | Promise<void>;
}

/** Polls until `probe` holds (the protection controllers act asynchronously); fails after a few seconds. */
async function eventually(probe: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never happened: ${what}`);
}

async function pemRequest(cn: string, organizations: string[]): Promise<string> {
  const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ]);
  const name = [`CN=${cn}`, ...organizations.map((o) => `O=${o}`)].join(', ');
  const request = await x509.Pkcs10CertificateRequestGenerator.create({
    name,
    keys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
  });
  return btoa(request.toString('pem'));
}

function grant(kind: 'Role' | 'ClusterRole', name: string, rules: unknown[]): Case[] {
  const base = kind === 'Role' ? `${rbac}/namespaces/${ns}` : rbac;
  const bindingKind = kind === 'Role' ? 'RoleBinding' : 'ClusterRoleBinding';
  return [
    {
      name: `grant ${name}: ${kind}`,
      method: 'POST',
      path: `${base}/${kind === 'Role' ? 'roles' : 'clusterroles'}`,
      body: { metadata: { name }, rules },
      status: 201,
    },
    {
      name: `grant ${name}: binding to alice`,
      method: 'POST',
      path: `${base}/${kind === 'Role' ? 'rolebindings' : 'clusterrolebindings'}`,
      body: {
        kind: bindingKind,
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.orch.io', kind, name },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'alice' }],
      },
      status: 201,
    },
  ];
}

describe('cluster admission plugins over HTTP', () => {
  let host: TestHost;
  let node1Uid = '';
  const uids = new Map<string, string>();

  const send = (c: Case): Promise<TestResponse> =>
    host.request(c.method, c.path, {
      ...(c.body !== undefined
        ? { body: typeof c.body === 'function' ? (c.body as () => unknown)() : c.body }
        : {}),
      ...(c.as !== undefined ? { as: c.as } : {}),
      ...(c.headers !== undefined ? { headers: c.headers } : {}),
      ...(c.contentType !== undefined
        ? { contentType: c.contentType }
        : c.method === 'PATCH'
          ? { contentType: merge }
          : {}),
    });

  const table = (cases: Case[]): void => {
    for (const c of cases)
      it(c.name, async () => {
        const answer = await send(c);
        expect(answer.status, answer.text).toBe(c.status);
        if (c.message !== undefined) expect(answer.body.message).toBe(c.message);
        await c.check?.(answer.body as Record<string, unknown>);
        const uid = (answer.body as { metadata?: { uid?: string; name?: string } }).metadata;
        if (uid?.uid !== undefined && uid.name !== undefined) uids.set(uid.name, uid.uid);
      });
  };

  const pod = (name: string, nodeName: string) => ({
    metadata: { name },
    spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }] },
  });

  beforeAll(async () => {
    host = await startTestHost({
      admission: {
        enablePlugins: ['NodeRestriction', 'OwnerReferencesPermissionEnforcement', 'PersistentVolumeLabel'],
      },
    });
    const setup: [string, string, unknown][] = [
      ['POST', '/api/v1/namespaces', { metadata: { name: ns } }],
      ['POST', '/api/v1/nodes', { metadata: { name: 'n1' } }],
      ['POST', '/api/v1/nodes', { metadata: { name: 'n2' } }],
      ['POST', `/api/v1/namespaces/${ns}/pods`, pod('p1', 'n1')],
      ['POST', `/api/v1/namespaces/${ns}/pods`, pod('p2', 'n2')],
      ['POST', `/api/v1/namespaces/${ns}/pods`, pod('p3', 'n1')],
    ];
    for (const [method, path, body] of setup) {
      const answer = await host.request(method, path, { body });
      expect(answer.status, answer.text).toBe(201);
      if (path === '/api/v1/nodes' && answer.body.metadata.name === 'n1') node1Uid = answer.body.metadata.uid;
    }
  });
  afterAll(async () => {
    await host?.close();
  });

  describe('NodeRestriction', () => {
    const nodes = '/api/v1/nodes';
    const pods = `/api/v1/namespaces/${ns}/pods`;
    const labels = (l: Record<string, string | null>) => ({ metadata: { labels: l } });
    const mirror =
      (extra: Record<string, unknown> = {}) =>
      () => ({
        metadata: {
          name: 'static-web-n1',
          annotations: { 'orch.io/config.mirror': 'hash' },
          ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: node1Uid, controller: true }],
          ...extra,
        },
        spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox' }] },
      });
    table([
      {
        name: "another node's Node: 403",
        method: 'PATCH',
        path: `${nodes}/n2`,
        headers: node1,
        body: labels({ 'example.com/x': 'y' }),
        status: 403,
        message: 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
      },
      {
        name: 'own Node, labels it reports itself and foreign domains: 200',
        method: 'PATCH',
        path: `${nodes}/n1`,
        headers: node1,
        body: labels({
          'orch.io/hostname': 'n1',
          'topology.orch.io/zone': 'z1',
          'node.orch.io/instance-type': 'big',
          'kubelet.orch.io/x': 'y',
          'sub.node.orch.io/x': 'y',
          'example.com/x': 'y',
        }),
        status: 200,
      },
      {
        name: 'own Node, node-restriction and other product labels: 403 listing them sorted',
        method: 'PATCH',
        path: `${nodes}/n1`,
        headers: node1,
        body: labels({
          'node-restriction.orch.io/trusted': 'yes',
          'orch.io/role': 'db',
          'example.com/x': null,
        }),
        status: 403,
        message:
          'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.orch.io/trusted, orch.io/role',
      },
      {
        name: 'the admin sets a node-restriction label on n1: 200',
        method: 'PATCH',
        path: `${nodes}/n1`,
        body: labels({ 'node-restriction.orch.io/trusted': 'yes' }),
        status: 200,
      },
      {
        name: '… then the node removes it: 403',
        method: 'PATCH',
        path: `${nodes}/n1`,
        headers: node1,
        body: labels({ 'node-restriction.orch.io/trusted': null }),
        status: 403,
        message: 'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.orch.io/trusted',
      },
      {
        name: 'own Node, taints: 403',
        method: 'PATCH',
        path: `${nodes}/n1`,
        headers: node1,
        body: { spec: { taints: [{ key: 'example.com/t', effect: 'NoSchedule' }] } },
        status: 403,
        message: 'nodes "n1" is forbidden: node "n1" is not allowed to modify taints',
      },
      {
        name: 'the admin changes taints and restricted labels freely: 200',
        method: 'PATCH',
        path: `${nodes}/n2`,
        body: { metadata: { labels: { 'node-restriction.orch.io/x': 'y' } }, spec: { taints: [] } },
        status: 200,
      },
      {
        name: 'deleting its own Node: 403',
        method: 'DELETE',
        path: `${nodes}/n1`,
        headers: node1,
        status: 403,
      },
      {
        name: 'registering another Node: 403',
        method: 'POST',
        path: nodes,
        headers: node1,
        body: { metadata: { name: 'n3' } },
        status: 403,
        message: 'nodes "n3" is forbidden: node "n1" is not allowed to modify node "n3"',
      },
      {
        name: 'status of a pod bound to it: 200',
        method: 'PATCH',
        path: `${pods}/p1/status`,
        headers: node1,
        body: { status: { message: 'running here' } },
        status: 200,
      },
      {
        name: 'status of a pod bound elsewhere: 403',
        method: 'PATCH',
        path: `${pods}/p2/status`,
        headers: node1,
        body: { status: { message: 'hijack' } },
        status: 403,
        message:
          'pods "p2" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself',
      },
      {
        name: 'labels through pod status: 403',
        method: 'PATCH',
        path: `${pods}/p1/status`,
        headers: node1,
        body: { metadata: { labels: { a: 'b' } } },
        status: 403,
        message: 'pods "p1" is forbidden: node "n1" cannot update labels through pod status',
      },
      {
        name: 'a pod without the mirror annotation: 403',
        method: 'POST',
        path: pods,
        headers: node1,
        body: pod('plain', 'n1'),
        status: 403,
        message:
          'pods "plain" is forbidden: pod does not have "orch.io/config.mirror" annotation, node "n1" can only create mirror pods',
      },
      {
        name: 'a mirror pod without an owner reference: 403',
        method: 'POST',
        path: pods,
        headers: node1,
        body: () => ({
          ...mirror({ ownerReferences: [] })(),
          metadata: { name: 'm0', annotations: { 'orch.io/config.mirror': 'h' } },
        }),
        status: 403,
        message:
          'pods "m0" is forbidden: node "n1" can only create pods with an owner reference set to itself',
      },
      {
        name: 'a mirror pod referencing a secret: 403',
        method: 'POST',
        path: pods,
        headers: node1,
        body: () => {
          const p = mirror()() as { spec: Record<string, unknown> };
          p.spec.volumes = [{ name: 'v', secret: { secretName: 's' } }];
          return p;
        },
        status: 403,
        // ServiceAccount runs before NodeRestriction in the real order, and refuses it first.
        message: 'pods "static-web-n1" is forbidden: a mirror pod may not reference secrets',
      },
      {
        name: 'a mirror pod bound to itself, owned by its Node: 201',
        method: 'POST',
        path: pods,
        headers: node1,
        body: mirror(),
        status: 201,
      },
      {
        name: 'updating a pod: 403',
        method: 'PATCH',
        path: `${pods}/p1`,
        headers: node1,
        body: { metadata: { labels: { a: 'b' } } },
        status: 403,
      },
      {
        name: 'deleting a pod bound elsewhere: 403',
        method: 'DELETE',
        path: `${pods}/p2`,
        headers: node1,
        status: 403,
        message: 'pods "p2" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself',
      },
      {
        name: 'evicting a pod bound elsewhere: 403',
        method: 'POST',
        path: `${pods}/p2/eviction`,
        headers: node1,
        body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p2', namespace: ns } },
        status: 403,
        message: 'pods "p2" is forbidden: node n1 can only evict pods with spec.nodeName set to itself',
      },
      {
        name: 'deleting a pod bound to itself: 200',
        method: 'DELETE',
        path: `${pods}/p3`,
        headers: node1,
        status: 200,
      },
      {
        name: "another node's lease: 403",
        method: 'POST',
        path: '/apis/coordination.orch.io/v1/namespaces/orch-node-lease/leases',
        headers: node1,
        body: { metadata: { name: 'n2' }, spec: { holderIdentity: 'n2' } },
        status: 403,
        message:
          'leases.coordination.orch.io "n2" is forbidden: can only access node lease with the same name as the requesting node',
      },
      {
        name: 'its own lease: 201',
        method: 'POST',
        path: '/apis/coordination.orch.io/v1/namespaces/orch-node-lease/leases',
        headers: node1,
        body: { metadata: { name: 'n1' }, spec: { holderIdentity: 'n1' } },
        status: 201,
      },
      {
        name: "another node's CSINode: 403",
        method: 'POST',
        path: '/apis/storage.orch.io/v1/csinodes',
        headers: node1,
        body: { metadata: { name: 'n2' }, spec: { drivers: [] } },
        status: 403,
        message:
          'csinodes.storage.orch.io "n2" is forbidden: can only access CSINode with the same name as the requesting node',
      },
    ]);
  });

  describe('OwnerReferencesPermissionEnforcement', () => {
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    const owner = () => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'owner',
      uid: uids.get('owner') ?? '',
    });
    table([
      {
        name: 'the owner (admin)',
        method: 'POST',
        path: cms,
        body: { metadata: { name: 'owner' } },
        status: 201,
      },
      ...grant('Role', 'cm-writer', [
        { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get', 'update', 'patch'] },
      ]),
      {
        name: 'creating with an owner reference needs no delete right: 201',
        method: 'POST',
        path: cms,
        as: 'alice',
        body: () => ({ metadata: { name: 'dep', ownerReferences: [owner()] } }),
        status: 201,
      },
      {
        name: 'changing owner references without delete: 403',
        method: 'PATCH',
        path: `${cms}/dep`,
        as: 'alice',
        body: { metadata: { ownerReferences: null } },
        status: 403,
        message: `configmaps "dep" is forbidden: cannot set an ownerRef on a resource you can't delete: , <nil>`,
      },
      {
        name: 'other changes without delete: 200',
        method: 'PATCH',
        path: `${cms}/dep`,
        as: 'alice',
        body: { data: { k: 'v' } },
        status: 200,
      },
      ...grant('Role', 'cm-deleter', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['delete'] }]),
      {
        name: 'changing owner references with delete: 200',
        method: 'PATCH',
        path: `${cms}/dep`,
        as: 'alice',
        body: { metadata: { ownerReferences: null } },
        status: 200,
      },
      {
        name: 'blockOwnerDeletion without update on the owner finalizers: 403',
        method: 'PATCH',
        path: `${cms}/dep`,
        as: 'alice',
        body: () => ({ metadata: { ownerReferences: [{ ...owner(), blockOwnerDeletion: true }] } }),
        status: 403,
        message: `configmaps "dep" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: , <nil>`,
      },
      {
        name: 'blockOwnerDeletion on create is checked too: 403',
        method: 'POST',
        path: cms,
        as: 'alice',
        body: () => ({
          metadata: { name: 'dep2', ownerReferences: [{ ...owner(), blockOwnerDeletion: true }] },
        }),
        status: 403,
      },
      ...grant('Role', 'cm-finalizer', [
        {
          apiGroups: [''],
          resources: ['configmaps/finalizers'],
          verbs: ['update'],
          resourceNames: ['owner'],
        },
      ]),
      {
        name: 'blockOwnerDeletion with update on the owner finalizers: 200',
        method: 'PATCH',
        path: `${cms}/dep`,
        as: 'alice',
        body: () => ({ metadata: { ownerReferences: [{ ...owner(), blockOwnerDeletion: true }] } }),
        status: 200,
      },
      {
        name: 'blockOwnerDeletion on an owner of a kind not served: 403',
        method: 'PATCH',
        path: `${cms}/dep`,
        as: 'alice',
        body: {
          metadata: {
            ownerReferences: [
              {
                apiVersion: 'example.com/v1',
                kind: 'Widget',
                name: 'w',
                uid: 'u-1',
                blockOwnerDeletion: true,
              },
            ],
          },
        },
        status: 403,
        message:
          'configmaps "dep" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion example.com/v1 Kind Widget: no matches for kind "Widget" in version "example.com/v1"',
      },
    ]);
  });

  describe('certificate plugins', () => {
    const requests = new Map<string, string>();
    let certificate = '';
    beforeAll(async () => {
      requests.set('masters', await pemRequest('root', ['system:masters']));
      requests.set('dev', await pemRequest('bob', ['dev']));
      certificate = btoa((await createTestCA('issued')).certPEM);
    });
    const csr = (name: string, signerName: string, request: string) => () => ({
      metadata: { name },
      spec: {
        signerName,
        request: requests.get(request),
        usages: ['digital signature', 'key encipherment', 'client auth'],
      },
    });
    const approved = (name: string) => ({
      metadata: { name },
      status: {
        conditions: [{ type: 'Approved', status: 'True', reason: 'ok', message: 'ok' }],
      },
    });
    table([
      {
        name: 'the API server client signer with system:masters: 403',
        method: 'POST',
        path: csrs,
        body: csr('masters', 'orch.io/apiserver-client', 'masters'),
        status: 403,
        message:
          'certificatesigningrequests.certificates.orch.io "masters" is forbidden: use of orch.io/apiserver-client signer with system:masters group is not allowed',
      },
      {
        name: 'the API server client signer with another group: 201',
        method: 'POST',
        path: csrs,
        body: csr('dev', 'orch.io/apiserver-client', 'dev'),
        status: 201,
      },
      {
        name: 'another signer with system:masters: 201',
        method: 'POST',
        path: csrs,
        body: csr('custom', 'example.com/foo', 'masters'),
        status: 201,
      },
      ...grant('ClusterRole', 'csr-approver', [
        {
          apiGroups: ['certificates.orch.io'],
          resources: [
            'certificatesigningrequests',
            'certificatesigningrequests/approval',
            'certificatesigningrequests/status',
          ],
          verbs: ['get', 'list', 'update', 'patch'],
        },
      ]),
      {
        name: 'approving without approve on the signer: 403',
        method: 'PUT',
        path: `${csrs}/custom/approval`,
        as: 'alice',
        body: approved('custom'),
        status: 403,
        message:
          'certificatesigningrequests.certificates.orch.io "custom" is forbidden: user not permitted to approve requests with signerName "example.com/foo"',
      },
      ...grant('ClusterRole', 'signer-approve', [
        {
          apiGroups: ['certificates.orch.io'],
          resources: ['signers'],
          verbs: ['approve'],
          resourceNames: ['example.com/*'],
        },
      ]),
      {
        name: 'approving with approve on <domain>/*: 200',
        method: 'PUT',
        path: `${csrs}/custom/approval`,
        as: 'alice',
        body: approved('custom'),
        status: 200,
      },
      {
        name: 'storing a certificate without sign on the signer: 403',
        method: 'PATCH',
        path: `${csrs}/custom/status`,
        as: 'alice',
        body: () => ({ status: { certificate } }),
        status: 403,
        message:
          'certificatesigningrequests.certificates.orch.io "custom" is forbidden: user not permitted to sign requests with signerName "example.com/foo"',
      },
      ...grant('ClusterRole', 'signer-sign', [
        {
          apiGroups: ['certificates.orch.io'],
          resources: ['signers'],
          verbs: ['sign'],
          resourceNames: ['example.com/foo'],
        },
      ]),
      {
        name: 'storing a certificate with sign on the signer: 200',
        method: 'PATCH',
        path: `${csrs}/custom/status`,
        as: 'alice',
        body: () => ({ status: { certificate } }),
        status: 200,
        check: (b) => expect((b.status as { certificate?: string }).certificate).toBe(certificate),
      },
    ]);
  });

  describe('DefaultIngressClass', () => {
    const ingresses = `/apis/networking.orch.io/v1/namespaces/${ns}/ingresses`;
    const classes = '/apis/networking.orch.io/v1/ingressclasses';
    const ingress = (name: string, className?: string) => ({
      metadata: { name },
      spec: {
        ...(className !== undefined ? { ingressClassName: className } : {}),
        defaultBackend: { service: { name: 'web', port: { number: 80 } } },
      },
    });
    const defaultClass = (name: string) => ({
      metadata: { name, annotations: { 'ingressclass.orch.io/is-default-class': 'true' } },
      spec: { controller: 'example.com/ingress' },
    });
    const className = (want: string | undefined) => (b: Record<string, unknown>) =>
      expect((b.spec as { ingressClassName?: string }).ingressClassName).toBe(want);
    table([
      {
        name: 'no default: left without a class',
        method: 'POST',
        path: ingresses,
        body: ingress('i0'),
        status: 201,
        check: className(undefined),
      },
      { name: 'one default class', method: 'POST', path: classes, body: defaultClass('ic1'), status: 201 },
      {
        name: 'one default: set',
        method: 'POST',
        path: ingresses,
        body: ingress('i1'),
        status: 201,
        check: className('ic1'),
      },
      {
        name: 'explicit class kept',
        method: 'POST',
        path: ingresses,
        body: ingress('i2', 'other'),
        status: 201,
        check: className('other'),
      },
      {
        name: 'a second default class',
        method: 'POST',
        path: classes,
        body: defaultClass('ic2'),
        status: 201,
      },
      {
        name: 'two defaults: creation refused',
        method: 'POST',
        path: ingresses,
        body: ingress('i3'),
        status: 403,
        message:
          'ingresses.networking.orch.io "i3" is forbidden: Internal error occurred: 2 default IngressClasses were found, only 1 allowed',
      },
      {
        name: 'two defaults: creation naming a class needs no default: 201',
        method: 'POST',
        path: ingresses,
        body: ingress('i4', 'ic2'),
        status: 201,
      },
      {
        name: 'two defaults: updates are ignored',
        method: 'PATCH',
        path: `${ingresses}/i0`,
        body: { metadata: { labels: { a: 'b' } } },
        status: 200,
        check: className(undefined),
      },
    ]);
  });

  describe('DefaultStorageClass, StorageObjectInUseProtection, PersistentVolumeClaimResize', () => {
    const claims = `/api/v1/namespaces/${ns}/persistentvolumeclaims`;
    const classes = '/apis/storage.orch.io/v1/storageclasses';
    const claim = (name: string, storageClassName?: string, size = '1Gi') => ({
      metadata: { name },
      spec: {
        ...(storageClassName !== undefined ? { storageClassName } : {}),
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: size } },
      },
    });
    const storageClass = (name: string, extra: Record<string, unknown> = {}, isDefault?: 'ga' | 'beta') => ({
      metadata: {
        name,
        ...(isDefault === undefined
          ? {}
          : {
              annotations: {
                [isDefault === 'ga'
                  ? 'storageclass.orch.io/is-default-class'
                  : 'storageclass.beta.orch.io/is-default-class']: 'true',
              },
            }),
      },
      provisioner: 'example.com/disk',
      ...extra,
    });
    const classOf = (want: string | undefined) => (b: Record<string, unknown>) =>
      expect((b.spec as { storageClassName?: string }).storageClassName).toBe(want);
    const grow = (size: string) => ({ spec: { resources: { requests: { storage: size } } } });
    const bound = { status: { phase: 'Bound' } };
    table([
      {
        name: 'no default class: none set; the pvc-protection finalizer is added',
        method: 'POST',
        path: claims,
        body: claim('c0'),
        status: 201,
        check: (b) => {
          classOf(undefined)(b);
          expect((b.metadata as { finalizers?: string[] }).finalizers).toEqual(['orch.io/pvc-protection']);
        },
      },
      { name: 'a fixed-size class', method: 'POST', path: classes, body: storageClass('fixed'), status: 201 },
      {
        name: 'an expandable default class (beta annotation)',
        method: 'POST',
        path: classes,
        body: storageClass('grow', { allowVolumeExpansion: true }, 'beta'),
        status: 201,
      },
      {
        name: 'one default: set',
        method: 'POST',
        path: claims,
        body: claim('c1'),
        status: 201,
        check: classOf('grow'),
      },
      {
        name: 'explicit class kept',
        method: 'POST',
        path: claims,
        body: claim('c2', 'fixed'),
        status: 201,
        check: classOf('fixed'),
      },
      { name: 'c1 bound', method: 'PATCH', path: `${claims}/c1/status`, body: bound, status: 200 },
      { name: 'c2 bound', method: 'PATCH', path: `${claims}/c2/status`, body: bound, status: 200 },
      {
        name: 'growing a claim of an expandable class: 200',
        method: 'PATCH',
        path: `${claims}/c1`,
        body: grow('2Gi'),
        status: 200,
      },
      {
        name: 'growing a claim of a fixed class: 403',
        method: 'PATCH',
        path: `${claims}/c2`,
        body: grow('1500Mi'),
        status: 403,
        message:
          'persistentvolumeclaims "c2" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
      },
      {
        name: 'the same size written differently is no growth: 200',
        method: 'PATCH',
        path: `${claims}/c2`,
        body: grow('1024Mi'),
        status: 200,
      },
      {
        name: 'a second default class (GA annotation)',
        method: 'POST',
        path: classes,
        body: storageClass('fast', {}, 'ga'),
        status: 201,
      },
      {
        name: 'two defaults: creation refused',
        method: 'POST',
        path: claims,
        body: claim('c3'),
        status: 403,
        message:
          'persistentvolumeclaims "c3" is forbidden: Internal error occurred: 2 default StorageClasses were found',
      },
      {
        name: 'two defaults: creation naming a class: 201',
        method: 'POST',
        path: claims,
        body: claim('c4', 'fast'),
        status: 201,
      },
      {
        name: 'a volume gets the pv-protection finalizer and no labels (PersistentVolumeLabel, no cloud provider)',
        method: 'POST',
        path: '/api/v1/persistentvolumes',
        body: {
          metadata: { name: 'pv1' },
          spec: {
            capacity: { storage: '1Gi' },
            accessModes: ['ReadWriteOnce'],
            hostPath: { path: '/tmp/pv1' },
          },
        },
        status: 201,
        check: (b) => {
          const meta = b.metadata as { finalizers?: string[]; labels?: unknown };
          expect(meta.finalizers).toEqual(['orch.io/pv-protection']);
          expect(meta.labels).toBeUndefined();
        },
      },
      {
        name: 'a scheduled pod using claim c4',
        method: 'POST',
        path: `/api/v1/namespaces/${ns}/pods`,
        body: {
          metadata: { name: 'user' },
          spec: {
            nodeName: 'n1',
            containers: [{ name: 'c', image: 'busybox' }],
            volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'c4' } }],
          },
        },
        status: 201,
      },
      {
        name: 'deleting the claim in use only marks it terminating',
        method: 'DELETE',
        path: `${claims}/c4`,
        status: 200,
        check: (b) => expect((b.metadata as { deletionTimestamp?: string }).deletionTimestamp).toBeDefined(),
      },
      {
        name: 'deleting an unused claim completes once the protection controller drops the finalizer',
        method: 'DELETE',
        path: `${claims}/c0`,
        status: 200,
        check: () =>
          eventually(async () => (await host.request('GET', `${claims}/c0`)).status === 404, 'c0 gone'),
      },
      {
        name: '… while the claim in use stays',
        method: 'GET',
        path: `${claims}/c4`,
        status: 200,
      },
      {
        name: 'once its pod is gone the claim goes too',
        method: 'DELETE',
        path: `/api/v1/namespaces/${ns}/pods/user?gracePeriodSeconds=0`,
        status: 200,
        check: () =>
          eventually(async () => (await host.request('GET', `${claims}/c4`)).status === 404, 'c4 gone'),
      },
      {
        name: 'an unbound volume is deleted once the protection controller drops the finalizer',
        method: 'DELETE',
        path: '/api/v1/persistentvolumes/pv1',
        status: 200,
        check: () =>
          eventually(
            async () => (await host.request('GET', '/api/v1/persistentvolumes/pv1')).status === 404,
            'pv1 gone',
          ),
      },
    ]);
  });
});

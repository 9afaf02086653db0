/**
 * Protobuf requests decode as the real server's Go types do. For every
 * built-in kind with a message, seeded random objects in Go's JSON form
 * (zero values, explicit pointer zeros, nested lists and maps) survive a Go
 * client's protobuf encoding (every plain field written, zero or not) and
 * the server's own response encoding unchanged. Over HTTP, for every
 * built-in kind that supports create, a JSON create and a protobuf create
 * of the same object (dry run) store byte-identical objects and identical
 * managedFields, or fail identically.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protobufCodec } from '../src/http/protobuf/codec';
import { namingProfile } from '../src/machinery/naming';
import { builtInDefinitions } from '../src/registry/builtins';
import { fetchWithCA, startTestHost, type TestHost } from './support/host';
import { goJson, randomGoObject, seeded } from './support/go-objects';
import { crdBody, createEstablished } from './support/crd';
import { protobufLibrary } from '../src/http/protobuf/library';

// The codec is used directly here, outside a request: load it as the request pipeline would.
await protobufLibrary.load();

const profile = namingProfile('kubernetes');
const codec = protobufCodec(profile);
const defs = builtInDefinitions;

function apiVersionOf(g: { group: string; version: string; groupSuffixed?: boolean }): string {
  const group = g.groupSuffixed === true ? profile.suffixed(g.group) : g.group;
  return group === '' ? g.version : `${group}/${g.version}`;
}

const kinds = Object.entries(defs).flatMap(([name, def]) => {
  const g = def.gvk?.[0];
  if (g === undefined) return [];
  const apiVersion = apiVersionOf(g);
  return codec.canEncode(apiVersion, g.kind) ? [{ name, apiVersion, kind: g.kind }] : [];
});

describe('protobuf decodes as the Go types marshal', () => {
  it('covers every kind with a message', () => {
    expect(kinds.length).toBeGreaterThan(140);
  });
  it.each(kinds)('$apiVersion $kind', ({ name, apiVersion, kind }) => {
    for (let seed = 1; seed <= 6; seed++) {
      const obj = { apiVersion, kind, ...randomGoObject(defs, name, { random: seeded(seed * 7919) }) };
      // A Go client's request body: every plain field on the wire.
      expect(codec.decode(codec.encode(obj, { asGoClient: true }) ?? new Uint8Array())).toEqual(obj);
      // The server's response, read by a Go client.
      expect(codec.decode(codec.encode(obj) ?? new Uint8Array())).toEqual(obj);
    }
  });
});

/** Valid objects of the common kinds (with zero values and pointer zeros); other kinds are generated. */
const labels = { app: 'pb' };
const podSpec = {
  containers: [
    {
      name: 'c',
      image: 'nginx',
      ports: [{ containerPort: 80, hostPort: 0 }],
      stdin: false,
      tty: false,
      workingDir: '',
    },
  ],
  hostNetwork: false,
  terminationGracePeriodSeconds: 0,
  enableServiceLinks: false,
  priority: 0,
};
const template = { metadata: { labels }, spec: podSpec };
const valid: Record<string, Record<string, unknown>> = {
  ConfigMap: { data: { a: '1', empty: '' }, immutable: false },
  Secret: { data: { a: 'YQ==' }, type: 'Opaque', immutable: false },
  Namespace: {},
  ServiceAccount: { automountServiceAccountToken: false },
  Pod: { spec: podSpec },
  PodTemplate: { template },
  ReplicationController: { spec: { replicas: 0, minReadySeconds: 0, selector: labels, template } },
  Service: {
    spec: { ports: [{ port: 80, nodePort: 0, name: '' }], publishNotReadyAddresses: false, clusterIP: '' },
  },
  Endpoints: { subsets: [{ addresses: [{ ip: '10.0.0.1', hostname: '' }], ports: [{ port: 80 }] }] },
  PersistentVolumeClaim: {
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
      storageClassName: '',
    },
  },
  ResourceQuota: { spec: { hard: { pods: '0' } } },
  LimitRange: { spec: { limits: [{ type: 'Container', max: { cpu: '1' } }] } },
  Deployment: {
    spec: {
      replicas: 0,
      minReadySeconds: 0,
      paused: false,
      revisionHistoryLimit: 0,
      selector: { matchLabels: labels },
      template,
    },
  },
  ReplicaSet: { spec: { replicas: 0, minReadySeconds: 0, selector: { matchLabels: labels }, template } },
  StatefulSet: {
    spec: { replicas: 0, serviceName: '', selector: { matchLabels: labels }, template, minReadySeconds: 0 },
  },
  DaemonSet: {
    spec: { selector: { matchLabels: labels }, template, minReadySeconds: 0, revisionHistoryLimit: 0 },
  },
  Job: {
    spec: {
      backoffLimit: 0,
      parallelism: 0,
      suspend: false,
      template: { spec: { ...podSpec, restartPolicy: 'Never' } },
    },
  },
  CronJob: {
    spec: {
      schedule: '*/5 * * * *',
      suspend: false,
      startingDeadlineSeconds: 0,
      jobTemplate: { spec: { template: { spec: { ...podSpec, restartPolicy: 'OnFailure' } } } },
    },
  },
  Role: { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
  ClusterRole: { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
  RoleBinding: {
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'User', name: 'u', apiGroup: 'rbac.authorization.k8s.io', namespace: '' }],
  },
  ClusterRoleBinding: {
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: 'default' }],
  },
  PriorityClass: { value: 0, globalDefault: false, description: '' },
  Lease: { spec: { holderIdentity: '', leaseDurationSeconds: 0, leaseTransitions: 0 } },
  PodDisruptionBudget: { spec: { minAvailable: 0, selector: { matchLabels: labels } } },
  HorizontalPodAutoscaler: {
    spec: {
      scaleTargetRef: { kind: 'Deployment', name: 'd', apiVersion: 'apps/v1' },
      minReplicas: 1,
      maxReplicas: 2,
    },
  },
  NetworkPolicy: { spec: { podSelector: {}, ingress: [{ ports: [{ port: 80, endPort: 0 }] }] } },
  Ingress: {
    spec: {
      ingressClassName: '',
      defaultBackend: { service: { name: 's', port: { number: 80 } } },
    },
  },
  IngressClass: { spec: { controller: 'example.com/c' } },
  StorageClass: { provisioner: 'example.com/p', allowVolumeExpansion: false },
  CSIDriver: { spec: { attachRequired: false, podInfoOnMount: false } },
};

interface Creatable {
  path: string;
  apiVersion: string;
  kind: string;
  definition: string;
}

const definitionOf = new Map(
  Object.entries(defs).flatMap(([name, def]) =>
    (def.gvk ?? []).map((g) => [`${apiVersionOf(g)}|${g.kind}`, name] as const),
  ),
);

/** Drops what differs between any two creates: uid, times, random names and addresses. */
function normalized(body: Record<string, unknown>): Record<string, unknown> {
  const uid = (body.metadata as { uid?: string } | undefined)?.uid;
  let text = JSON.stringify(body).replace(/(kube-api-access-)[a-z0-9]{5}/g, '$1xxxxx');
  // A Job's selector and labels carry its uid.
  if (uid !== undefined) text = text.replaceAll(uid, 'UID');
  const copy = JSON.parse(text) as Record<string, unknown>;
  // Allocated addresses are random.
  const spec = copy.spec as Record<string, unknown> | undefined;
  if (copy.kind === 'Service' && spec !== undefined) {
    delete spec.clusterIP;
    delete spec.clusterIPs;
  }
  const meta = copy.metadata as Record<string, unknown> | undefined;
  if (meta !== undefined) {
    delete meta.uid;
    delete meta.creationTimestamp;
    for (const entry of (meta.managedFields ?? []) as Record<string, unknown>[]) delete entry.time;
  }
  return copy;
}

describe('JSON and protobuf creates store the same object (kubernetes profile, dry run)', () => {
  let host: TestHost;
  const creatable: Creatable[] = [];

  beforeAll(async () => {
    host = await startTestHost({ profile: 'kubernetes' });
    const versions = ['/api/v1'];
    const groups = (await host.request('GET', '/apis')).body as {
      groups: { versions: { groupVersion: string }[] }[];
    };
    for (const g of groups.groups) for (const v of g.versions) versions.push(`/apis/${v.groupVersion}`);
    for (const base of versions) {
      const list = (await host.request('GET', base)).body as {
        groupVersion: string;
        resources: { name: string; namespaced: boolean; kind: string; verbs: string[] }[];
      };
      for (const r of list.resources) {
        if (r.name.includes('/') || !r.verbs.includes('create')) continue;
        const definition = definitionOf.get(`${list.groupVersion}|${r.kind}`);
        if (definition === undefined) continue;
        const path = r.namespaced ? `${base}/namespaces/default/${r.name}` : `${base}/${r.name}`;
        creatable.push({ path, apiVersion: list.groupVersion, kind: r.kind, definition });
      }
    }
  });
  afterAll(async () => {
    await host.close();
  });

  it('covers every built-in kind that supports create and stores the same object either way', async () => {
    expect(creatable.length).toBeGreaterThan(50);
    let created = 0;
    for (const [i, c] of creatable.entries()) {
      const body =
        valid[c.kind] ?? randomGoObject(defs, c.definition, { random: seeded(1000 + i), maxDepth: 5 });
      const obj = goJson(
        defs,
        {
          ...body,
          apiVersion: c.apiVersion,
          kind: c.kind,
          metadata: { name: `pb-${i}`, labels: { a: 'b' }, annotations: { note: '' } },
        },
        c.definition,
      );
      const url = `${host.url}${c.path}?dryRun=All&fieldManager=kubectl-create&fieldValidation=Strict`;
      const viaJson = await fetchWithCA(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(obj),
      });
      const viaProtobuf = await fetchWithCA(url, {
        method: 'POST',
        headers: { 'content-type': profile.protobufMediaType },
        body: codec.encode(obj, { asGoClient: true }),
      });
      const what = `${c.apiVersion} ${c.kind}`;
      expect(viaProtobuf.status, what).toBe(viaJson.status);
      const a = (await viaJson.json()) as Record<string, unknown>;
      const b = (await viaProtobuf.json()) as Record<string, unknown>;
      expect(normalized(b), what).toEqual(normalized(a));
      if (viaJson.status === 201 || viaJson.status === 200) created++;
      if (valid[c.kind] !== undefined)
        expect(viaJson.status, `${what}: ${JSON.stringify(a)}`).toBeLessThan(300);
    }
    expect(created).toBeGreaterThan(30);
  });

  it('lists the protobuf media type in the 415 of creates and updates, as the real server does', async () => {
    const accepted =
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf';
    for (const [method, path] of [
      ['POST', '/api/v1/namespaces/default/configmaps'],
      ['PUT', '/api/v1/namespaces/default/configmaps/c'],
      ['PUT', '/apis/apps/v1/namespaces/default/deployments/d/status'],
    ] as const) {
      const r = await host.request(method, path, { body: '<x/>', contentType: 'application/xml' });
      expect(r.status, `${method} ${path}`).toBe(415);
      expect(r.body).toMatchObject({ reason: 'UnsupportedMediaType', message: accepted });
    }
    // Custom resources are served by the same negotiation, but an unstructured object has no message.
    const crd = crdBody(
      {
        type: 'object',
        properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
      { group: 'pb.example.com', apiGroup: 'apiextensions.k8s.io' },
    );
    await createEstablished(host, crd, 'apiextensions.k8s.io');
    const widgets = '/apis/pb.example.com/v1/namespaces/default/widgets';
    const xml = await host.request('POST', widgets, { body: '<x/>', contentType: 'application/xml' });
    expect(xml.status).toBe(415);
    expect(xml.body.message).toBe(accepted);
    const envelope = protobufCodec(profile).encode({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'w' },
    });
    const pb = await fetchWithCA(`${host.url}${widgets}`, {
      method: 'POST',
      headers: { 'content-type': profile.protobufMediaType },
      body: envelope,
    });
    expect(pb.status).toBe(400);
    expect(((await pb.json()) as { message: string }).message).toBe(
      'ConfigMap in version "v1" cannot be handled as a Widget: object *unstructured.Unstructured does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message',
    );
  });
});

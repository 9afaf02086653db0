/**
 * Service allocation over HTTP, as a v1.27 server allocates: cluster IPs from
 * `--service-cluster-ip-range` (default 10.0.0.0/24) with the IP family
 * fields filled in, requested addresses and node ports honoured, conflicts
 * and out-of-range requests answered with the real 422s, addresses released
 * on delete and on a change of type, nothing taken by a dry run or a failed
 * create, and a restart over kept state knowing what is taken. Also the
 * `kubernetes` Service, Endpoints and EndpointSlice in both profiles (kept
 * reconciled, restored after a reset), and `kubectl get svc` showing the
 * cluster IP. Requested addresses lie in the static band (10.0.0.2–.16 of
 * the /24: a sixteenth of the range, at least 16), which automatic
 * allocation uses only once the upper band is full, so no automatic address
 * can take one before the case that asks for it; requested node ports
 * likewise lie in the ports' static band (30000–30085, a thirty-second).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namingProfile, type ProfileName } from '../src/machinery/naming';
import { eventually } from './support/crd';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';

interface Port {
  name?: string;
  port: number;
  nodePort?: number;
  targetPort?: number | string;
  protocol?: string;
}
interface Svc {
  metadata: { name: string; labels?: Record<string, string> };
  spec: {
    type?: string;
    clusterIP?: string;
    clusterIPs?: string[];
    ipFamilies?: string[];
    ipFamilyPolicy?: string;
    ports?: Port[];
    healthCheckNodePort?: number;
  };
  status?: unknown;
}

const services = '/api/v1/namespaces/default/services';

function svc(name: string, spec: Record<string, unknown> = {}): unknown {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name },
    spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec },
  };
}

function inRange(ip: string | undefined, prefix: string): boolean {
  return ip !== undefined && ip.startsWith(prefix) && Number(ip.slice(prefix.length)) > 0;
}

describe('service allocation (default ranges)', () => {
  let host: TestHost;
  const create = (body: unknown, query = '') => host.request('POST', `${services}${query}`, { body });
  const remove = (name: string) => host.request('DELETE', `${services}/${name}`);

  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(() => host.close());

  it.each<{ what: string; spec: Record<string, unknown>; expect: (s: Svc) => void }>([
    {
      what: 'a ClusterIP Service gets an address of 10.0.0.0/24 and single-stack family fields',
      spec: {},
      expect: (s) => {
        expect(inRange(s.spec.clusterIP, '10.0.0.')).toBe(true);
        expect(s.spec.clusterIPs).toEqual([s.spec.clusterIP]);
        expect(s.spec.ipFamilies).toEqual(['IPv4']);
        expect(s.spec.ipFamilyPolicy).toBe('SingleStack');
        expect(s.status).toEqual({ loadBalancer: {} });
      },
    },
    {
      what: 'a requested address is honoured',
      spec: { clusterIP: '10.0.0.5' },
      expect: (s) => expect([s.spec.clusterIP, s.spec.clusterIPs]).toEqual(['10.0.0.5', ['10.0.0.5']]),
    },
    {
      what: 'a headless Service with a selector gets no address',
      spec: { clusterIP: 'None' },
      expect: (s) => {
        expect(s.spec.clusterIPs).toEqual(['None']);
        expect([s.spec.ipFamilies, s.spec.ipFamilyPolicy]).toEqual([['IPv4'], 'SingleStack']);
      },
    },
    {
      what: 'a headless selectorless Service requires dual-stack families',
      spec: { clusterIP: 'None', selector: undefined },
      expect: (s) => {
        expect(s.spec.clusterIP).toBe('None');
        expect([s.spec.ipFamilies, s.spec.ipFamilyPolicy]).toEqual([['IPv4', 'IPv6'], 'RequireDualStack']);
      },
    },
    {
      what: 'an ExternalName Service gets no address and no family fields',
      spec: { type: 'ExternalName', externalName: 'db.example.com', selector: undefined },
      expect: (s) => {
        expect(s.spec.clusterIP).toBeUndefined();
        expect(s.spec.ipFamilies).toBeUndefined();
      },
    },
    {
      what: 'a NodePort Service gets a node port of 30000-32767',
      spec: { type: 'NodePort' },
      expect: (s) => {
        const np = s.spec.ports?.[0]?.nodePort ?? 0;
        expect(np >= 30000 && np <= 32767).toBe(true);
      },
    },
    {
      what: 'a LoadBalancer Service with a Local policy gets a health-check node port',
      spec: { type: 'LoadBalancer', externalTrafficPolicy: 'Local' },
      expect: (s) => {
        const hc = s.spec.healthCheckNodePort ?? 0;
        expect(hc >= 30000 && hc <= 32767).toBe(true);
        expect(hc).not.toBe(s.spec.ports?.[0]?.nodePort);
      },
    },
  ])('$what', async ({ spec, expect: check }) => {
    const name = `alloc-${Math.random().toString(36).slice(2, 8)}`;
    const r = await create(svc(name, spec));
    expect(r.status, r.text).toBe(201);
    check(r.body as Svc);
    const stored = await host.request('GET', `${services}/${name}`);
    expect(stored.body.spec).toEqual(r.body.spec);
    expect((await remove(name)).status).toBe(200);
  });

  it.each<{ what: string; spec: Record<string, unknown>; status: number; message: string }>([
    {
      what: 'a taken address',
      spec: { clusterIP: '10.0.0.2' },
      status: 422,
      message:
        'Service "conflict" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.2"}: failed to allocate IP 10.0.0.2: provided IP is already allocated',
    },
    {
      what: 'an address out of the range',
      spec: { clusterIP: '10.1.0.5' },
      status: 422,
      message:
        'Service "conflict" is invalid: spec.clusterIPs: Invalid value: []string{"10.1.0.5"}: failed to allocate IP 10.1.0.5: the provided IP (10.1.0.5) is not in the valid range. The range of valid IPs is 10.0.0.0/24',
    },
    {
      what: 'an address that is not one',
      spec: { clusterIP: 'abc' },
      status: 422,
      message:
        'Service "conflict" is invalid: spec.clusterIPs[0]: Invalid value: "abc": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    },
    {
      what: 'a family the cluster does not serve',
      spec: { clusterIP: 'fd00::5' },
      status: 422,
      message:
        'Service "conflict" is invalid: spec.clusterIPs[0]: Invalid value: []string{"fd00::5"}: IPv6 is not configured on this cluster',
    },
    {
      what: 'dual-stack required on a single-stack cluster',
      spec: { ipFamilyPolicy: 'RequireDualStack' },
      status: 422,
      message:
        'Service "conflict" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
    },
    {
      what: 'a type the API does not have',
      spec: { type: 'Bogus' },
      status: 422,
      message:
        'Service "conflict" is invalid: spec.type: Unsupported value: "Bogus": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    },
    {
      what: 'a taken node port',
      spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] },
      status: 422,
      message:
        'Service "conflict" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated',
    },
    {
      what: 'a node port out of the range',
      spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 29999 }] },
      status: 422,
      message:
        'Service "conflict" is invalid: spec.ports[0].nodePort: Invalid value: 29999: provided port is not in the valid range. The range of valid ports is 30000-32767',
    },
    {
      what: 'a taken health-check node port',
      spec: { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 30080 },
      status: 500,
      message:
        'Internal error occurred: failed to allocate requested HealthCheck NodePort 30080: provided port is already allocated',
    },
  ])('refuses $what', async ({ spec, status, message }) => {
    const holder = await create(
      svc('holder', { type: 'NodePort', clusterIP: '10.0.0.2', ports: [{ port: 80, nodePort: 30080 }] }),
    );
    expect(holder.status, holder.text).toBe(201);
    try {
      const r = await create(svc('conflict', spec));
      expect(r.status, r.text).toBe(status);
      expect(r.body.message).toBe(message);
      if (status === 422) expect(r.body.reason).toBe('Invalid');
      expect((await host.request('GET', `${services}/conflict`)).status).toBe(404);
    } finally {
      await remove('holder');
    }
  });

  it('gives addresses and node ports back on delete', async () => {
    const spec = { type: 'NodePort', clusterIP: '10.0.0.3', ports: [{ port: 80, nodePort: 30030 }] };
    expect((await create(svc('first', spec))).status).toBe(201);
    expect((await create(svc('second', spec))).status).toBe(422);
    expect((await remove('first')).status).toBe(200);
    const again = await create(svc('second', spec));
    expect(again.status, again.text).toBe(201);
    await remove('second');
  });

  it('takes nothing on a dry run, and gives back what a failed create reserved', async () => {
    const dry = await create(svc('dry', { clusterIP: '10.0.0.6' }), '?dryRun=All');
    expect(dry.status, dry.text).toBe(201);
    expect(dry.body.spec.clusterIP).toBe('10.0.0.6');
    const auto = await create(svc('dry-auto', { type: 'NodePort' }), '?dryRun=All');
    expect(inRange(auto.body.spec.clusterIP as string, '10.0.0.')).toBe(true);
    expect(auto.body.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    // A name the validation refuses after the address was reserved, then a name that is taken.
    const bad = await create(svc('Bad_Name', { clusterIP: '10.0.0.7' }));
    expect(bad.status).toBe(422);
    // An address of its own, apart from the .6–.8 the loop below takes again.
    expect((await create(svc('dup', { clusterIP: '10.0.0.9' }))).status).toBe(201);
    const taken = await create(svc('dup', { clusterIP: '10.0.0.8' }));
    expect(taken.status).toBe(409);
    for (const [name, ip] of [
      ['after-dry', '10.0.0.6'],
      ['after-bad', '10.0.0.7'],
      ['after-dup', '10.0.0.8'],
    ] as const) {
      const r = await create(svc(name, { clusterIP: ip }));
      expect(r.status, r.text).toBe(201);
      await remove(name);
    }
    await remove('dup');
  });

  it('keeps allocated values on a PUT that omits them, and releases what a new type does not use', async () => {
    const made = await create(
      svc('changing', {
        type: 'NodePort',
        clusterIP: '10.0.0.10',
        ports: [{ name: 'http', port: 80, nodePort: 30040 }],
      }),
    );
    expect(made.status, made.text).toBe(201);
    const put = await host.request('PUT', `${services}/changing`, {
      body: {
        ...(svc('changing', { type: 'NodePort', ports: [{ name: 'http', port: 80 }] }) as object),
        metadata: { name: 'changing', resourceVersion: made.body.metadata.resourceVersion },
      },
    });
    expect(put.status, put.text).toBe(200);
    expect([put.body.spec.clusterIP, put.body.spec.ports[0].nodePort]).toEqual(['10.0.0.10', 30040]);
    // NodePort to ClusterIP frees the node port; ClusterIP to ExternalName frees the address.
    const toClusterIP = await host.request('PATCH', `${services}/changing`, {
      body: { spec: { type: 'ClusterIP' } },
      contentType: 'application/merge-patch+json',
    });
    expect(toClusterIP.status, toClusterIP.text).toBe(200);
    expect(toClusterIP.body.spec.ports[0].nodePort).toBeUndefined();
    const toExternal = await host.request('PATCH', `${services}/changing`, {
      body: { spec: { type: 'ExternalName', externalName: 'db.example.com', selector: null } },
      contentType: 'application/merge-patch+json',
    });
    expect(toExternal.status, toExternal.text).toBe(200);
    expect(toExternal.body.spec.clusterIP).toBeUndefined();
    const reuse = await create(
      svc('reuse', { type: 'NodePort', clusterIP: '10.0.0.10', ports: [{ port: 80, nodePort: 30040 }] }),
    );
    expect(reuse.status, reuse.text).toBe(201);
    await remove('reuse');
    await remove('changing');
  });

  describe('an allocated cluster IP may not change (the real ValidateServiceUpdate)', () => {
    const merge = (name: string, body: unknown) =>
      host.request('PATCH', `${services}/${name}`, { body, contentType: 'application/merge-patch+json' });
    beforeAll(async () => {
      expect((await create(svc('fixed', { clusterIP: '10.0.0.12' }))).status).toBe(201);
      expect((await create(svc('headless', { clusterIP: 'None' }))).status).toBe(201);
      const external = svc('external', { type: 'ExternalName', externalName: 'db.example.com' });
      delete (external as { spec: Record<string, unknown> }).spec.selector;
      expect((await create(external)).status).toBe(201);
    });
    afterAll(async () => {
      for (const name of ['fixed', 'headless', 'external']) await remove(name);
    });

    it.each<{ what: string; name: string; patch: unknown; status: number; message?: string; ip?: string }>([
      {
        what: 'both fields changed',
        name: 'fixed',
        patch: { spec: { clusterIP: '10.0.0.13', clusterIPs: ['10.0.0.13'] } },
        status: 422,
        message:
          'Service "fixed" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.0.0.13"}: may not change once set',
      },
      {
        what: 'only clusterIP changed (an old client): clusterIPs follows, then is refused',
        name: 'fixed',
        patch: { spec: { clusterIP: '10.0.0.13' } },
        status: 422,
        message:
          'Service "fixed" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.0.0.13"}: may not change once set',
      },
      {
        what: 'an allocated Service made headless',
        name: 'fixed',
        patch: { spec: { clusterIP: 'None', clusterIPs: ['None'] } },
        status: 422,
        message:
          'Service "fixed" is invalid: spec.clusterIPs[0]: Invalid value: []string{"None"}: may not change once set',
      },
      {
        what: 'a headless Service stays headless',
        name: 'headless',
        patch: { metadata: { labels: { a: 'b' } } },
        status: 200,
        ip: 'None',
      },
      {
        what: 'an ExternalName Service takes a cluster IP with its new type',
        name: 'external',
        patch: { spec: { type: 'ClusterIP', clusterIP: '10.0.0.14', selector: { app: 'external' } } },
        status: 200,
        ip: '10.0.0.14',
      },
    ])('$what: $status', async ({ name, patch, status, message, ip }) => {
      const r = await merge(name, patch);
      expect(r.status, r.text).toBe(status);
      if (message !== undefined) expect(r.body.message).toBe(message);
      if (ip !== undefined) expect(r.body.spec.clusterIP).toBe(ip);
    });

    it('leaves the refused address free and the Service on its own', async () => {
      expect((await host.request('GET', `${services}/fixed`)).body.spec.clusterIPs).toEqual(['10.0.0.12']);
      const other = await create(svc('other', { clusterIP: '10.0.0.13' }));
      expect(other.status, other.text).toBe(201);
      await remove('other');
    });
  });

  it('gives back what an update reserved when that update removes the last finalizer', async () => {
    const made = await create({
      ...(svc('finalized') as object),
      metadata: { name: 'finalized', finalizers: ['example.com/keep'] },
    });
    expect(made.status, made.text).toBe(201);
    expect((await remove('finalized')).status).toBe(200);
    // One write both takes a node port (a new type) and completes the deletion.
    const last = await host.request('PATCH', `${services}/finalized`, {
      body: {
        metadata: { finalizers: null },
        spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30077 }] },
      },
      contentType: 'application/merge-patch+json',
    });
    expect(last.status, last.text).toBe(200);
    expect((await host.request('GET', `${services}/finalized`)).status).toBe(404);
    const again = await create(
      svc('after-finalized', { type: 'NodePort', ports: [{ port: 80, nodePort: 30077 }] }),
    );
    expect(again.status, again.text).toBe(201);
    await remove('after-finalized');
  });

  it('validates Endpoints addresses on update as on create', async () => {
    const endpoints = '/api/v1/namespaces/default/endpoints';
    const made = await host.request('POST', endpoints, {
      body: {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: 'eps' },
        subsets: [{ addresses: [{ ip: '10.1.2.3' }] }],
      },
    });
    expect(made.status, made.text).toBe(201);
    const r = await host.request('PUT', `${endpoints}/eps`, {
      body: { ...made.body, subsets: [{ addresses: [{ ip: '169.254.1.1' }] }] },
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'Endpoints "eps" is invalid: subsets[0].addresses[0].ip: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
    );
    await host.request('DELETE', `${endpoints}/eps`);
  });

  it('publishes the kubernetes Service, Endpoints and EndpointSlice (orch names) and puts them back', async () => {
    const profile = namingProfile('orch');
    const port = Number(new URL(host.url).port);
    const k = await host.request('GET', `${services}/kubernetes`);
    expect(k.status, k.text).toBe(200);
    expect(k.body.metadata.labels).toEqual({ component: 'apiserver', provider: 'orch' });
    expect(k.body.spec).toMatchObject({
      type: 'ClusterIP',
      clusterIP: '10.0.0.1',
      clusterIPs: ['10.0.0.1'],
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: port }],
    });
    const ep = await host.request('GET', '/api/v1/namespaces/default/endpoints/kubernetes');
    expect(ep.body.metadata.labels).toEqual({ 'endpointslice.orch.io/skip-mirror': 'true' });
    expect(ep.body.subsets).toEqual([
      { addresses: [{ ip: '192.168.49.2' }], ports: [{ name: 'https', port, protocol: 'TCP' }] },
    ]);
    const slicePath = `/apis/${profile.suffixed('discovery')}/v1/namespaces/default/endpointslices/kubernetes`;
    const slice = await host.request('GET', slicePath);
    expect(slice.body.metadata.labels).toEqual({ 'orch.io/service-name': 'kubernetes' });
    expect(slice.body.addressType).toBe('IPv4');
    expect(slice.body.endpoints).toEqual([{ addresses: ['192.168.49.2'], conditions: { ready: true } }]);
    // The first address is the kubernetes Service's.
    const taken = await create(svc('first-ip', { clusterIP: '10.0.0.1' }));
    expect(taken.body.message).toContain('provided IP is already allocated');
    // Deleted or changed, they come back as the reconciler keeps them.
    expect((await host.request('DELETE', '/api/v1/namespaces/default/endpoints/kubernetes')).status).toBe(
      200,
    );
    expect((await host.request('DELETE', slicePath)).status).toBe(200);
    await eventually(async () => {
      const r = await host.request('GET', '/api/v1/namespaces/default/endpoints/kubernetes');
      return r.status === 200 ? r : undefined;
    }, 'the kubernetes Endpoints to come back');
    await eventually(async () => {
      const r = await host.request('GET', slicePath);
      return r.status === 200 ? r : undefined;
    }, 'the kubernetes EndpointSlice to come back');
    expect((await host.request('DELETE', `${services}/kubernetes`)).status).toBe(200);
    const back = await eventually(async () => {
      const r = await host.request('GET', `${services}/kubernetes`);
      return r.status === 200 ? r : undefined;
    }, 'the kubernetes Service to come back');
    expect(back.body.spec.clusterIP).toBe('10.0.0.1');
  });

  it('restores the kubernetes objects and frees every address after a reset', async () => {
    expect((await create(svc('before-reset', { clusterIP: '10.0.0.11' }))).status).toBe(201);
    const reset = await host.request('POST', '/sandbox/v1/reset');
    expect(reset.status, reset.text).toBeLessThan(300);
    const list = await host.request('GET', services);
    expect((list.body.items as Svc[]).map((s) => s.metadata.name)).toEqual(['kubernetes']);
    expect(list.body.items[0].spec.clusterIP).toBe('10.0.0.1');
    expect((await host.request('GET', '/api/v1/namespaces/default/endpoints/kubernetes')).status).toBe(200);
    const again = await create(svc('after-reset', { clusterIP: '10.0.0.11' }));
    expect(again.status, again.text).toBe(201);
  });
});

describe('service allocation (flags, loopback advertise address)', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({
      serviceClusterIPRange: '10.96.0.0/28',
      serviceNodePortRange: '31000-31002',
      advertiseAddress: '127.0.0.1',
    });
  });
  afterAll(() => host.close());

  it('allocates from the configured ranges until they are full', async () => {
    const k = await host.request('GET', `${services}/kubernetes`);
    expect(k.body.spec.clusterIP).toBe('10.96.0.1');
    const ports: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await host.request('POST', services, { body: svc(`np-${i}`, { type: 'NodePort' }) });
      expect(r.status, r.text).toBe(201);
      expect(inRange(r.body.spec.clusterIP as string, '10.96.0.')).toBe(true);
      ports.push(r.body.spec.ports[0].nodePort as number);
    }
    expect(ports.sort()).toEqual([31000, 31001, 31002]);
    const full = await host.request('POST', services, { body: svc('np-full', { type: 'NodePort' }) });
    expect(full.status).toBe(500);
    expect(full.body.message).toBe('Internal error occurred: failed to allocate a nodePort: range is full');
  });

  it('publishes no Endpoints for a loopback advertise address, which Endpoints validation refuses', async () => {
    expect((await host.request('GET', '/api/v1/namespaces/default/endpoints/kubernetes')).status).toBe(404);
    const r = await host.request('POST', '/api/v1/namespaces/default/endpoints', {
      body: {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: 'lo' },
        subsets: [{ addresses: [{ ip: '127.0.0.1' }] }],
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'Endpoints "lo" is invalid: subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    );
  });
});

describe.each<ProfileName>(['kubernetes'])(
  'service allocation over a restart (%s profile)',
  (profileName) => {
    const database = `service-allocation-${Date.now()}`;
    let host: TestHost;
    beforeAll(async () => {
      host = await startTestHost({ profile: profileName, storage: 'dexie', dexieDatabase: database });
    });
    afterAll(() => host.close());

    it('knows what stored Services hold after a restart, and re-points the Endpoints', async () => {
      const made = await host.request('POST', services, {
        body: svc('kept', {
          type: 'NodePort',
          clusterIP: '10.0.0.12',
          ports: [{ port: 80, nodePort: 30060 }],
        }),
      });
      expect(made.status, made.text).toBe(201);
      const k = await host.request('GET', `${services}/kubernetes`);
      expect(k.body.metadata.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' });
      const slice = await host.request(
        'GET',
        '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes',
      );
      expect(slice.body.metadata.labels).toEqual({ 'kubernetes.io/service-name': 'kubernetes' });
      await host.close();
      host = await startTestHost({
        profile: profileName,
        storage: 'dexie',
        dexieDatabase: database,
        advertiseAddress: '10.20.30.40',
      });
      const again = await host.request('POST', services, {
        body: svc('again', {
          type: 'NodePort',
          clusterIP: '10.0.0.12',
          ports: [{ port: 80, nodePort: 30061 }],
        }),
      });
      expect(again.status).toBe(422);
      expect(again.body.message).toContain(
        'failed to allocate IP 10.0.0.12: provided IP is already allocated',
      );
      const port = await host.request('POST', services, {
        body: svc('again', { type: 'NodePort', ports: [{ port: 80, nodePort: 30060 }] }),
      });
      expect(port.body.message).toContain(
        'spec.ports[0].nodePort: Invalid value: 30060: provided port is already allocated',
      );
      const ep = await host.request('GET', '/api/v1/namespaces/default/endpoints/kubernetes');
      expect(ep.body.subsets[0].addresses).toEqual([{ ip: '10.20.30.40' }]);
      expect(ep.body.metadata.labels).toEqual({ 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    });

    it('keeps the node port concurrent PATCHes of one Service asked for (Dexie store)', async () => {
      // Each PATCH that loses the race retries on the stored version: its claim on the port must not free it.
      for (const [round, nodePort] of [30082, 30083, 30084].entries()) {
        const name = `racer-${round}`;
        const made = await host.request('POST', services, {
          body: svc(name, { type: 'NodePort', ports: [{ name: 'h', port: 80 }] }),
        });
        expect(made.status, made.text).toBe(201);
        const patches = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            host.request('PATCH', `${services}/${name}`, {
              body: {
                metadata: { labels: { [`l${i}`]: '1' } },
                spec: { ports: [{ name: 'h', port: 80, nodePort }] },
              },
              contentType: 'application/merge-patch+json',
            }),
          ),
        );
        expect(patches.map((p) => p.status)).toEqual(Array(6).fill(200));
        const stored = await host.request('GET', `${services}/${name}`);
        expect(stored.body.spec.ports[0].nodePort).toBe(nodePort);
        const other = await host.request('POST', services, {
          body: svc(`${name}-other`, { type: 'NodePort', ports: [{ port: 80, nodePort }] }),
        });
        expect(other.status, other.text).toBe(422);
        expect(other.body.message).toContain('provided port is already allocated');
      }
    });

    const skip = kubectlSkipReason();
    it.skipIf(skip !== undefined)(
      `kubectl create service clusterip shows the cluster IP ${skip ?? ''}`,
      async () => {
        const created = await kubectl(host.kubeconfigPath, [
          'create',
          'service',
          'clusterip',
          'web',
          '--tcp=80:8080',
        ]);
        expect(created.code, created.stderr).toBe(0);
        expect(created.stdout.trim()).toBe('service/web created');
        const got = await kubectl(host.kubeconfigPath, ['get', 'svc', 'web', 'kubernetes']);
        expect(got.code, got.stderr).toBe(0);
        const lines = got.stdout.trim().split('\n');
        expect(lines[0]).toMatch(/^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE$/);
        expect(lines[1]).toMatch(/^web\s+ClusterIP\s+10\.0\.0\.\d+\s+<none>\s+80\/TCP\s+\S+$/);
        expect(lines[2]).toMatch(/^kubernetes\s+ClusterIP\s+10\.0\.0\.1\s+<none>\s+443\/TCP\s+\S+$/);
      },
    );
  },
);

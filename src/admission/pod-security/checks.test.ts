/**
 * Every Pod Security check, table-driven: for each, a pod that passes and
 * one that fails, evaluated at baseline and at restricted (latest), with
 * the exact reason and detail the real library gives.
 */

import { describe, expect, it } from 'vitest';
import { aggregate, newEvaluator } from './evaluator';
import { latestVersion, type Level } from './levels';
import type { ContainerView, PodMetaView, PodSpecView } from './pod-view';

const evaluator = newEvaluator();

/** A container that satisfies restricted. */
const goodContainer = (name = 'c'): ContainerView => ({
  name,
  image: 'nginx',
  securityContext: {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    runAsNonRoot: true,
    seccompProfile: { type: 'RuntimeDefault' },
  },
});

/** A pod that passes restricted, changed by `edit`. */
function pod(edit: (spec: PodSpecView, meta: PodMetaView) => void = () => undefined): {
  meta: PodMetaView;
  spec: PodSpecView;
} {
  const spec: PodSpecView = { containers: [goodContainer()] };
  const meta: PodMetaView = { name: 'p' };
  edit(spec, meta);
  return { meta, spec };
}

const sc = (spec: PodSpecView) => {
  const c = spec.containers?.[0];
  if (c?.securityContext === undefined) throw new Error('test pod has no container securityContext');
  return c.securityContext;
};

/** The violations ("reason (detail)") a pod has at a level. */
function violations(level: Level, p: { meta: PodMetaView; spec: PodSpecView }): string {
  return aggregate(evaluator.evaluatePod({ level, version: latestVersion }, p.meta, p.spec)).forbiddenDetail;
}

interface Case {
  name: string;
  fail: ReturnType<typeof pod>;
  /** Expected at baseline ('' when baseline allows it). */
  baseline: string;
  restricted: string;
  pass: ReturnType<typeof pod>;
}

const cases: Case[] = [
  {
    name: 'hostNamespaces',
    fail: pod((s) => Object.assign(s, { hostNetwork: true, hostPID: true, hostIPC: true })),
    baseline: 'host namespaces (hostNetwork=true, hostPID=true, hostIPC=true)',
    restricted: 'host namespaces (hostNetwork=true, hostPID=true, hostIPC=true)',
    pass: pod((s) => Object.assign(s, { hostNetwork: false })),
  },
  {
    name: 'privileged',
    fail: pod((s) => (sc(s).privileged = true)),
    baseline: 'privileged (container "c" must not set securityContext.privileged=true)',
    restricted: 'privileged (container "c" must not set securityContext.privileged=true)',
    pass: pod((s) => (sc(s).privileged = false)),
  },
  {
    name: 'capabilities',
    fail: pod((s) => (sc(s).capabilities = { drop: ['ALL'], add: ['NET_ADMIN', 'CHOWN'] })),
    baseline:
      'non-default capabilities (container "c" must not include "NET_ADMIN" in securityContext.capabilities.add)',
    restricted:
      'unrestricted capabilities (container "c" must not include "CHOWN", "NET_ADMIN" in securityContext.capabilities.add)',
    pass: pod((s) => (sc(s).capabilities = { drop: ['ALL'], add: ['NET_BIND_SERVICE'] })),
  },
  {
    name: 'capabilities drop ALL',
    fail: pod((s) => (sc(s).capabilities = { add: ['CHOWN'] })),
    baseline: '',
    restricted:
      'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]; container "c" must not include "CHOWN" in securityContext.capabilities.add)',
    pass: pod(),
  },
  {
    name: 'hostPath volumes',
    fail: pod(
      (s) =>
        (s.volumes = [
          { name: 'root', hostPath: { path: '/' } },
          { name: 'cfg', configMap: {} },
        ]),
    ),
    baseline: 'hostPath volumes (volume "root")',
    restricted: 'restricted volume types (volume "root" uses restricted volume type "hostPath")',
    pass: pod((s) => (s.volumes = [{ name: 'cfg', configMap: {} }])),
  },
  {
    name: 'restricted volume types',
    fail: pod((s) => (s.volumes = [{ name: 'a', nfs: {} }, { name: 'b', hostPath: {} }, { name: 'c' }])),
    baseline: 'hostPath volumes (volume "b")',
    restricted:
      'restricted volume types (volumes "a", "b", "c" use restricted volume types "hostPath", "nfs", "unknown")',
    pass: pod(
      (s) =>
        (s.volumes = [
          { name: 'a', emptyDir: {} },
          { name: 'b', persistentVolumeClaim: {} },
        ]),
    ),
  },
  {
    name: 'hostPorts',
    fail: pod((s) => (s.containers = [{ ...goodContainer(), ports: [{ hostPort: 80 }, { hostPort: 443 }] }])),
    baseline: 'hostPort (container "c" uses hostPorts 80, 443)',
    restricted: 'hostPort (container "c" uses hostPorts 80, 443)',
    pass: pod((s) => (s.containers = [{ ...goodContainer(), ports: [{ containerPort: 80, hostPort: 0 }] }])),
  },
  {
    name: 'appArmor',
    fail: pod(
      (_s, m) => (m.annotations = { 'container.apparmor.security.beta.kubernetes.io/c': 'unconfined' }),
    ),
    baseline: 'forbidden AppArmor profile (container.apparmor.security.beta.kubernetes.io/c="unconfined")',
    restricted: 'forbidden AppArmor profile (container.apparmor.security.beta.kubernetes.io/c="unconfined")',
    pass: pod(
      (_s, m) => (m.annotations = { 'container.apparmor.security.beta.kubernetes.io/c': 'runtime/default' }),
    ),
  },
  {
    name: 'seLinuxOptions',
    fail: pod((s) => (s.securityContext = { seLinuxOptions: { type: 'spc_t', user: 'root' } })),
    baseline:
      'seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set)',
    restricted:
      'seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set)',
    pass: pod((s) => (s.securityContext = { seLinuxOptions: { type: 'container_t', level: 's0:c1' } })),
  },
  {
    name: 'procMount',
    fail: pod((s) => (sc(s).procMount = 'Unmasked')),
    baseline: 'procMount (container "c" must not set securityContext.procMount to "Unmasked")',
    restricted: 'procMount (container "c" must not set securityContext.procMount to "Unmasked")',
    pass: pod((s) => (sc(s).procMount = 'Default')),
  },
  {
    name: 'seccompProfile',
    fail: pod((s) => (sc(s).seccompProfile = { type: 'Unconfined' })),
    baseline:
      'seccompProfile (container "c" must not set securityContext.seccompProfile.type to "Unconfined")',
    restricted:
      'seccompProfile (container "c" must not set securityContext.seccompProfile.type to "Unconfined")',
    pass: pod((s) => (sc(s).seccompProfile = { type: 'Localhost', localhostProfile: 'p.json' })),
  },
  {
    name: 'seccompProfile unset',
    fail: pod((s) => delete sc(s).seccompProfile),
    baseline: '',
    restricted:
      'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    pass: pod((s) => {
      delete sc(s).seccompProfile;
      s.securityContext = { seccompProfile: { type: 'RuntimeDefault' } };
    }),
  },
  {
    name: 'sysctls',
    fail: pod(
      (s) => (s.securityContext = { sysctls: [{ name: 'kernel.msgmax' }, { name: 'net.core.somaxconn' }] }),
    ),
    baseline: 'forbidden sysctls (kernel.msgmax, net.core.somaxconn)',
    restricted: 'forbidden sysctls (kernel.msgmax, net.core.somaxconn)',
    pass: pod((s) => (s.securityContext = { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports' }] })),
  },
  {
    name: 'windowsHostProcess',
    fail: pod((s) => {
      s.securityContext = { windowsOptions: { hostProcess: true } };
      sc(s).windowsOptions = { hostProcess: true };
    }),
    baseline:
      'hostProcess (pod and container "c" must not set securityContext.windowsOptions.hostProcess=true)',
    restricted:
      'hostProcess (pod and container "c" must not set securityContext.windowsOptions.hostProcess=true)',
    pass: pod((s) => (s.securityContext = { windowsOptions: { hostProcess: false } })),
  },
  {
    name: 'allowPrivilegeEscalation',
    fail: pod((s) => delete sc(s).allowPrivilegeEscalation),
    baseline: '',
    restricted:
      'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false)',
    pass: pod(),
  },
  {
    name: 'runAsNonRoot unset',
    fail: pod((s) => delete sc(s).runAsNonRoot),
    baseline: '',
    restricted: 'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true)',
    pass: pod((s) => {
      delete sc(s).runAsNonRoot;
      s.securityContext = { runAsNonRoot: true };
    }),
  },
  {
    name: 'runAsNonRoot false',
    fail: pod((s) => {
      s.securityContext = { runAsNonRoot: false };
      sc(s).runAsNonRoot = false;
    }),
    baseline: '',
    restricted:
      'runAsNonRoot != true (pod and container "c" must not set securityContext.runAsNonRoot=false)',
    pass: pod((s) => (s.securityContext = { runAsNonRoot: true })),
  },
  {
    name: 'runAsUser',
    fail: pod((s) => {
      s.securityContext = { runAsUser: 0 };
      s.containers = [goodContainer('a'), goodContainer('b')];
      for (const c of s.containers) if (c.securityContext !== undefined) c.securityContext.runAsUser = 0;
    }),
    baseline: '',
    restricted: 'runAsUser=0 (pod and containers "a", "b" must not set runAsUser=0)',
    pass: pod((s) => (s.securityContext = { runAsUser: 1000 })),
  },
];

describe('Pod Security checks', () => {
  it.each(cases)('$name: the failing pod at baseline and restricted', (c) => {
    expect(violations('baseline', c.fail)).toBe(c.baseline);
    expect(violations('restricted', c.fail)).toBe(c.restricted);
  });

  it.each(cases)('$name: the passing pod passes both', (c) => {
    expect(violations('baseline', c.pass)).toBe('');
    expect(violations('restricted', c.pass)).toBe('');
  });

  it('privileged allows everything', () => {
    const p = pod((s) => Object.assign(s, { hostNetwork: true }));
    expect(evaluator.evaluatePod({ level: 'privileged', version: latestVersion }, p.meta, p.spec)).toEqual(
      [],
    );
  });

  it('lists init containers first and aggregates in the real order', () => {
    const p = pod((s) => {
      s.initContainers = [{ name: 'init', image: 'busybox' }];
      s.containers = [{ name: 'nginx', image: 'nginx' }];
      s.hostNetwork = true;
    });
    expect(violations('restricted', p)).toBe(
      'host namespaces (hostNetwork=true), ' +
        'allowPrivilegeEscalation != false (containers "init", "nginx" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (containers "init", "nginx" must set securityContext.capabilities.drop=["ALL"]), ' +
        'runAsNonRoot != true (pod or containers "init", "nginx" must set securityContext.runAsNonRoot=true), ' +
        'seccompProfile (pod or containers "init", "nginx" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
    expect(
      aggregate(evaluator.evaluatePod({ level: 'restricted', version: latestVersion }, p.meta, p.spec))
        .forbiddenReason,
    ).toBe(
      'host namespaces, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    );
  });
});

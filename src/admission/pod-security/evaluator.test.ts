/**
 * Versioned evaluation: a pinned `v1.x` runs each check as it was in that
 * release (checks that did not exist yet do not run), `latest` and newer
 * pins run the newest, and restricted checks replace the baseline checks
 * they cover only from the version they exist in.
 */

import { describe, expect, it } from 'vitest';
import { aggregate, newEvaluator } from './evaluator';
import { latestVersion, v1, type LevelVersion } from './levels';
import type { PodMetaView, PodSpecView } from './pod-view';

const evaluator = newEvaluator();
const reasons = (lv: LevelVersion, spec: PodSpecView, meta: PodMetaView = {}) =>
  aggregate(evaluator.evaluatePod(lv, meta, spec)).forbiddenReason;

const bare: PodSpecView = { containers: [{ name: 'c', image: 'nginx' }] };

describe('versions', () => {
  const cases: {
    version: string;
    lv: LevelVersion;
    spec: PodSpecView;
    meta?: PodMetaView;
    expected: string;
  }[] = [
    {
      version: 'restricted:v1.0 has only runAsNonRoot for a bare pod',
      lv: { level: 'restricted', version: v1(0) },
      spec: bare,
      expected: 'runAsNonRoot != true',
    },
    {
      version: 'restricted:v1.8 adds allowPrivilegeEscalation',
      lv: { level: 'restricted', version: v1(8) },
      spec: bare,
      expected: 'allowPrivilegeEscalation != false, runAsNonRoot != true',
    },
    {
      version: 'restricted:v1.19 adds seccomp',
      lv: { level: 'restricted', version: v1(19) },
      spec: bare,
      expected: 'allowPrivilegeEscalation != false, runAsNonRoot != true, seccompProfile',
    },
    {
      version: 'restricted:v1.22 adds capabilities',
      lv: { level: 'restricted', version: v1(22) },
      spec: bare,
      expected:
        'allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    },
    {
      version: 'restricted:v1.99 is the newest',
      lv: { level: 'restricted', version: v1(99) },
      spec: { ...bare, os: { name: 'windows' } },
      expected: 'runAsNonRoot != true',
    },
    {
      version: 'restricted:v1.24 does not exempt windows pods yet',
      lv: { level: 'restricted', version: v1(24) },
      spec: { ...bare, os: { name: 'windows' } },
      expected:
        'allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    },
    {
      version: 'restricted:latest exempts windows pods from the linux-only checks',
      lv: { level: 'restricted', version: latestVersion },
      spec: { ...bare, os: { name: 'windows' } },
      expected: 'runAsNonRoot != true',
    },
    {
      version: 'restricted:v1.22 ignores runAsUser=0 (v1.23 check)',
      lv: { level: 'restricted', version: v1(22) },
      spec: {
        securityContext: { runAsNonRoot: true, runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' } },
        containers: [
          {
            name: 'c',
            securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
          },
        ],
      },
      expected: '',
    },
    {
      version: 'restricted:v1.23 forbids runAsUser=0',
      lv: { level: 'restricted', version: v1(23) },
      spec: {
        securityContext: { runAsNonRoot: true, runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' } },
        containers: [
          {
            name: 'c',
            securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
          },
        ],
      },
      expected: 'runAsUser=0',
    },
    {
      version: 'baseline:v1.26 forbids ip_local_reserved_ports',
      lv: { level: 'baseline', version: v1(26) },
      spec: { ...bare, securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports' }] } },
      expected: 'forbidden sysctls',
    },
    {
      version: 'baseline:v1.27 allows ip_local_reserved_ports',
      lv: { level: 'baseline', version: v1(27) },
      spec: { ...bare, securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports' }] } },
      expected: '',
    },
    {
      version: 'baseline:v1.18 reads seccomp annotations',
      lv: { level: 'baseline', version: v1(18) },
      spec: bare,
      meta: { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } },
      expected: 'seccompProfile',
    },
    {
      version: 'baseline:v1.19 reads seccomp fields, not annotations',
      lv: { level: 'baseline', version: v1(19) },
      spec: bare,
      meta: { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } },
      expected: '',
    },
    {
      version: 'restricted:v1.21 still reports non-default capabilities at baseline wording',
      lv: { level: 'restricted', version: v1(21) },
      spec: {
        securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
        containers: [
          {
            name: 'c',
            securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ['SYS_ADMIN'] } },
          },
        ],
      },
      expected: 'non-default capabilities',
    },
  ];
  it.each(cases)('$version', (c) => {
    expect(reasons(c.lv, c.spec, c.meta)).toBe(c.expected);
  });

  it('the seccomp annotation detail names each annotation', () => {
    const meta = {
      annotations: {
        'seccomp.security.alpha.kubernetes.io/pod': 'unconfined',
        'container.seccomp.security.alpha.kubernetes.io/c': 'runtime/default',
      },
    };
    expect(
      aggregate(evaluator.evaluatePod({ level: 'baseline', version: v1(18) }, meta, bare)).forbiddenDetail,
    ).toBe('seccompProfile (forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined")');
  });
});

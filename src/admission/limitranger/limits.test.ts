/** LimitRange defaults and checks, beside the rules: the annotation text and the real message wording. */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { aggregate, applyDefaults, claimViolations, podViolations } from './limits';

const range = (limits: unknown[]): KubeObject => ({ apiVersion: 'v1', kind: 'LimitRange', spec: { limits } });

const pod = (containers: unknown[], initContainers: unknown[] = []): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  spec: { containers, initContainers },
});

describe('applyDefaults', () => {
  it('fills only what a container leaves out and names what it set, requests first', () => {
    const p = pod([{ name: 'a', resources: { requests: { cpu: '1' } } }, { name: 'b' }], [{ name: 'init' }]);
    const note = applyDefaults(
      p,
      range([
        { type: 'Container', defaultRequest: { cpu: '100m', memory: '64Mi' }, default: { memory: '128Mi' } },
      ]),
    );
    expect(note).toBe(
      'LimitRanger plugin set: memory request for container a; memory limit for container a; cpu, memory request for container b; memory limit for container b; cpu, memory request for init container init; memory limit for init container init',
    );
    const spec = p.spec as { containers: { resources: unknown }[] };
    expect(spec.containers[0]?.resources).toEqual({
      requests: { cpu: '1', memory: '64Mi' },
      limits: { memory: '128Mi' },
    });
  });

  it('sets nothing without Container defaults', () => {
    expect(applyDefaults(pod([{ name: 'a' }]), range([{ type: 'Pod', max: { cpu: '1' } }]))).toBeUndefined();
  });
});

describe('violations', () => {
  it.each([
    [
      'no request under a minimum',
      [{ type: 'Container', min: { memory: '10Mi' } }],
      [{ name: 'a' }],
      ['minimum memory usage per Container is 10Mi.  No request is specified'],
    ],
    [
      'no limit under a maximum',
      [{ type: 'Container', max: { cpu: '2' } }],
      [{ name: 'a', resources: { requests: { cpu: '1' } } }],
      ['maximum cpu usage per Container is 2.  No limit is specified'],
    ],
    [
      'a ratio over the maximum',
      [{ type: 'Container', maxLimitRequestRatio: { memory: '2' } }],
      [{ name: 'a', resources: { requests: { memory: '100Mi' }, limits: { memory: '300Mi' } } }],
      ['memory max limit to request ratio per Container is 2, but provided ratio is 3.000000'],
    ],
    [
      'the pod total over a Pod maximum',
      [{ type: 'Pod', max: { cpu: '1' } }],
      [
        { name: 'a', resources: { requests: { cpu: '600m' }, limits: { cpu: '600m' } } },
        { name: 'b', resources: { requests: { cpu: '600m' }, limits: { cpu: '600m' } } },
      ],
      ['maximum cpu usage per Pod is 1, but limit is 1200m'],
    ],
  ])('%s', (_name, limits, containers, messages) => {
    expect(podViolations(pod(containers), range(limits))).toEqual(messages);
  });

  it('bounds a claim by its storage request', () => {
    const claim: KubeObject = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      spec: { resources: { requests: { storage: '2Gi' } } },
    };
    expect(
      claimViolations(claim, range([{ type: 'PersistentVolumeClaim', max: { storage: '1Gi' } }])),
    ).toEqual(['maximum storage usage per PersistentVolumeClaim is 1Gi, but request is 2Gi']);
  });

  it('aggregates as Go does: one bare, several bracketed, duplicates once', () => {
    expect(aggregate(['a'])).toBe('a');
    expect(aggregate(['a', 'a'])).toBe('a');
    expect(aggregate(['a', 'b', 'a'])).toBe('[a, b]');
  });
});

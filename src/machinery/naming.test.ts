import { describe, expect, it } from 'vitest';
import { namingProfile } from './naming';

describe('naming profiles', () => {
  it.each([
    {
      profile: 'orch' as const,
      shortWord: 'orch',
      systemNamespace: 'orch-system',
      rootCAConfigMap: 'orch-root-ca.crt',
      signers: {
        apiserverClient: 'orch.io/apiserver-client',
        apiserverClientKubelet: 'orch.io/apiserver-client-node-agent',
        kubeletServing: 'orch.io/node-agent-serving',
        legacyUnknown: 'orch.io/legacy-unknown',
      },
    },
    {
      profile: 'kubernetes' as const,
      shortWord: 'kube',
      systemNamespace: 'kube-system',
      rootCAConfigMap: 'kube-root-ca.crt',
      signers: {
        apiserverClient: 'kubernetes.io/kube-apiserver-client',
        apiserverClientKubelet: 'kubernetes.io/kube-apiserver-client-kubelet',
        kubeletServing: 'kubernetes.io/kubelet-serving',
        legacyUnknown: 'kubernetes.io/legacy-unknown',
      },
    },
  ])('$profile names its system objects and built-in signers', (row) => {
    const p = namingProfile(row.profile);
    expect(p.shortWord).toBe(row.shortWord);
    expect(p.systemNamespace).toBe(row.systemNamespace);
    expect(p.rootCAConfigMap).toBe(row.rootCAConfigMap);
    expect(p.signers).toEqual(row.signers);
  });
});

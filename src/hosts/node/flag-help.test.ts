import { describe, expect, it } from 'vitest';
import { helpText } from './flag-help';

describe('helpText', () => {
  const text = helpText({
    'secure-port': {
      kind: 'string',
      type: 'int',
      section: 'secure serving',
      usage: 'The port.',
      default: '6443',
    },
    'bind-address': { kind: 'string', type: 'ip', section: 'secure serving', usage: 'The address.' },
    'etcd-prefix': { kind: 'string', section: 'etcd', usage: 'The prefix.', default: '/registry' },
    'anonymous-auth': { kind: 'bool', section: 'authentication', usage: 'Anonymous.', default: 'true' },
    'feature-gates': { kind: 'mapStringBool', section: 'generic', usage: 'Gates:\nA=true|false' },
    'undocumented-flag': 'stringSlice',
  });

  it('prints sections in kube-apiserver order with pflag alignment and defaults', () => {
    const sections = [...text.matchAll(/^(\w[\w ]*) flags:$/gm)].map((m) => m[1]);
    expect(sections).toEqual(['Generic', 'Etcd', 'Secure serving', 'Authentication', 'Misc', 'Global']);
    expect(text).toContain(
      '      --bind-address ip   The address.\n      --secure-port int   The port. (default 6443)\n',
    );
    expect(text).toContain('--etcd-prefix string   The prefix. (default "/registry")');
    expect(text).toContain('--anonymous-auth   Anonymous. (default true)');
    expect(text).toContain(
      '      --feature-gates mapStringBool   Gates:\n                                      A=true|false\n',
    );
    expect(text).toContain('  -h, --help   help for kube-apiserver');
  });

  it('prints a flag declared by its kind alone, with its type and no usage', () => {
    expect(text).toMatch(/^ {6}--undocumented-flag strings$/m);
  });
});

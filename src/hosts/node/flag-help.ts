/**
 * `--help` for the Node host, printed as kube-apiserver prints it: the
 * command's description, `Usage:`, then each named flag section (`Generic
 * flags:`, `Etcd flags:`, …) with pflag's layout — `      --name type`
 * padded to one column per section, the usage, then `(default …)` when the
 * default is not the type's zero value. Everything comes from the flag
 * table's declarations (args.ts); a flag declared by its kind alone still
 * prints, in the section `sectionFallback` names or under Misc.
 */

/** How the scanner reads a flag's value (pflag's value kinds the host uses). */
export type FlagKind = 'string' | 'bool' | 'stringArray' | 'stringSlice' | 'mapNoSplit' | 'mapStringBool';

/** A flag declaration with its help: what each entry of the flag table may carry. */
export interface FlagSpec {
  kind: FlagKind;
  /** One paragraph; `\n` starts a new line aligned with the usage column. */
  usage?: string;
  /** The default as pflag prints it (`6443`, `5m0s`, `[RS256]`); absent when it is the zero value. */
  default?: string;
  /** The type name pflag prints (`int`, `duration`, `ip`); defaults to the kind's own. */
  type?: string;
  /** Help section, lower case as the real NamedFlagSets (`generic`, `etcd`, `secure serving`, …). */
  section?: string;
}

export function kindOf(decl: FlagKind | FlagSpec): FlagKind {
  return typeof decl === 'string' ? decl : decl.kind;
}

/** kube-apiserver's section order, then the sandbox's own. */
const sectionOrder = [
  'generic',
  'etcd',
  'secure serving',
  'auditing',
  'features',
  'authentication',
  'authorization',
  'api enablement',
  'admission',
  'metrics',
  'logs',
  'traces',
  'misc',
  'controller manager',
  'simulation',
  'sandbox',
  'global',
];

/** Help for flags the table declares by kind alone (other modules' tables): used where the entry says nothing. */
const fallback: Readonly<Record<string, Omit<FlagSpec, 'kind'>>> = {
  'livez-grace-period': { section: 'generic', type: 'duration' },
  'shutdown-delay-duration': { section: 'generic', type: 'duration' },
  'shutdown-send-retry-after': { section: 'generic' },
  'show-hidden-metrics-for-version': { section: 'metrics' },
  'service-cluster-ip-range': { section: 'misc' },
  'service-node-port-range': { section: 'misc', type: 'portRange' },
  'service-account-signing-key-file': {
    section: 'misc',
    usage: 'Path to the file that contains the current private key of the service account token issuer.',
  },
  'service-account-max-token-expiration': {
    section: 'authentication',
    type: 'duration',
    usage: 'The maximum validity duration of a token created by the service account token issuer.',
  },
  'service-account-extend-token-expiration': {
    section: 'authentication',
    usage: 'Turns on projected service account expiration extension during token generation.',
    default: 'true',
  },
  'service-account-jwks-uri': {
    section: 'authentication',
    usage:
      'Overrides the URI for the JSON Web Key Set in the discovery doc served at /.well-known/openid-configuration.',
  },
  'cluster-signing-cert-file': {
    section: 'controller manager',
    usage: 'Filename containing a PEM-encoded X509 CA certificate used to issue cluster-scoped certificates.',
  },
  'cluster-signing-key-file': {
    section: 'controller manager',
    usage:
      'Filename containing a PEM-encoded RSA or ECDSA private key used to sign cluster-scoped certificates.',
  },
  'cluster-signing-duration': {
    section: 'controller manager',
    type: 'duration',
    usage: 'The max length of duration signed certificates will be given.',
    default: '8760h0m0s',
  },
};

/** The per-signer `--cluster-signing-<signer>-{cert,key}-file` flags. */
function signerFallback(name: string): Omit<FlagSpec, 'kind'> | undefined {
  const m = /^cluster-signing-(.+)-(cert|key)-file$/.exec(name);
  if (m === null) return undefined;
  const what = m[2] === 'cert' ? 'X509 CA certificate' : 'RSA or ECDSA private key';
  return {
    section: 'controller manager',
    usage: `Filename containing a PEM-encoded ${what} used to issue certificates for the ${m[1] ?? ''} signer.`,
  };
}

/** pflag's type name for a kind (bool prints none). */
const typeNames: Record<FlagKind, string> = {
  string: 'string',
  bool: '',
  stringArray: 'stringArray',
  stringSlice: 'strings',
  mapNoSplit: 'mapStringString',
  mapStringBool: 'mapStringBool',
};

const description = `The Kubernetes API server validates and configures data
for the api objects which include pods, services, replicationcontrollers, and
others. The API Server services REST operations and provides the frontend to the
cluster's shared state through which all other components interact.

This is the Orch Sandbox's re-implementation (the controllers of the controller
manager run in the same process).`;

function sectionTitle(name: string): string {
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} flags:`;
}

function specOf(name: string, decl: FlagKind | FlagSpec): FlagSpec {
  const own: FlagSpec = typeof decl === 'string' ? { kind: decl } : decl;
  return { ...(fallback[name] ?? signerFallback(name)), ...own };
}

function flagLine(name: string, decl: FlagKind | FlagSpec): { head: string; tail: string } {
  const spec = specOf(name, decl);
  const shorthand = name === 'help' ? '  -h, ' : '      ';
  const type = spec.type ?? typeNames[spec.kind];
  const head = `${shorthand}--${name}${type === '' ? '' : ` ${type}`}`;
  let tail = spec.usage ?? '';
  if (spec.default !== undefined && spec.default !== '')
    tail += `${tail === '' ? '' : ' '}(default ${type === 'string' ? JSON.stringify(spec.default) : spec.default})`;
  return { head, tail };
}

/** The whole `--help` text for a flag table. */
export function helpText(
  flags: Readonly<Record<string, FlagKind | FlagSpec>>,
  command = 'kube-apiserver',
): string {
  const sections = new Map<string, [string, FlagKind | FlagSpec][]>();
  const entries: [string, FlagKind | FlagSpec][] = [
    ...Object.entries(flags),
    ['help', { kind: 'bool', section: 'global', usage: `help for ${command}` }],
  ];
  for (const [name, decl] of entries) {
    const section = specOf(name, decl).section ?? 'misc';
    const list = sections.get(section) ?? [];
    list.push([name, decl]);
    sections.set(section, list);
  }
  const names = [...sections.keys()].sort((a, b) => {
    const ia = sectionOrder.indexOf(a);
    const ib = sectionOrder.indexOf(b);
    return (ia < 0 ? sectionOrder.length : ia) - (ib < 0 ? sectionOrder.length : ib);
  });
  let out = `${description}\n\nUsage:\n  ${command} [flags]\n`;
  for (const section of names) {
    // pflag sorts each set's flags by name.
    const lines = (sections.get(section) ?? [])
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, decl]) => flagLine(name, decl));
    const width = Math.max(...lines.map((l) => l.head.length));
    out += `\n${sectionTitle(section)}\n\n`;
    for (const { head, tail } of lines) {
      const indent = ' '.repeat(width + 3);
      out += `${head.padEnd(width)}   ${tail.replaceAll('\n', `\n${indent}`)}`.trimEnd() + '\n';
    }
  }
  return out;
}

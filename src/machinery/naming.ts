/**
 * The product's naming profile: the one module that spells group suffixes,
 * media types, schema extension prefixes, annotation prefixes and system
 * namespaces. Profile `orch` uses the names of the specification; profile
 * `kubernetes` uses the upstream names so that unmodified clients work
 * against every group. Everything else asks this module for a name.
 */

export type ProfileName = 'orch' | 'kubernetes';

/** The four built-in certificate signers, by what they sign. */
export type SignerKind = 'apiserverClient' | 'apiserverClientKubelet' | 'kubeletServing' | 'legacyUnknown';

export interface NamingProfile {
  readonly name: ProfileName;
  /** Suffix of the product's own API groups, e.g. `orch.io`. */
  readonly groupSuffix: string;
  /** Prefix of product-owned annotations, labels and finalizers, e.g. `orch.io/` (upstream `kubernetes.io/`). */
  readonly prefix: string;
  /** Domain of product-owned labels, e.g. `orch.io` (upstream `kubernetes.io`). */
  readonly labelDomain: string;
  /** The bare product word, e.g. `orch`; also the namespace finalizer. */
  readonly word: string;
  /**
   * The short word of component and system names, `orch` (upstream `kube`, not `kubernetes`):
   * `kube-system`, `kube-root-ca.crt`, `kubeconfig`, `kube-apiserver`.
   */
  readonly shortWord: string;
  /** Protobuf media type, e.g. `application/vnd.orch.protobuf`. */
  readonly protobufMediaType: string;
  /** Namespace of system components, e.g. `orch-system`. */
  readonly systemNamespace: string;
  /** Namespace of public cluster information, e.g. `orch-public`. */
  readonly publicNamespace: string;
  /** Namespace for node leases, e.g. `orch-node-lease`. */
  readonly nodeLeaseNamespace: string;
  /** The group of meta types (Table, PartialObjectMetadata), e.g. `meta.orch.io`. */
  readonly metaGroup: string;
  /** Full name of a suffixed group: `suffixed('apiextensions')` is `apiextensions.orch.io`. */
  suffixed(base: string): string;
  /** Schema extension name: `ext('list-type')` is `x-orch-list-type`. */
  ext(name: string): string;
  /** Label/annotation name: `prefixed('metadata.name')` is `orch.io/metadata.name` (upstream `kubernetes.io/...`). */
  prefixed(name: string): string;
  /** Name in a subdomain of the label domain: `subPrefixed('node', 'not-ready')` is `node.orch.io/not-ready`. */
  subPrefixed(subdomain: string, name: string): string;
  /** Name under the group suffix: `groupPrefixed('initial-events-end')` is `orch.io/initial-events-end` (upstream `k8s.io/...`). */
  groupPrefixed(name: string): string;
  /** Prefix of OpenAPI definition names, e.g. `io.orch.` (upstream `io.k8s.`). */
  readonly definitionPrefix: string;
  /** The Table media type parameter set for the active meta group. */
  readonly tableMediaType: string;
  /** The namespace lifecycle finalizer in `spec.finalizers`. */
  readonly namespaceFinalizer: string;
  /** The names of the namespaces that exist from the start, in creation order. */
  readonly initialNamespaces: readonly string[];
  /** The ConfigMap with the cluster CA in every namespace: `orch-root-ca.crt` (upstream `kube-root-ca.crt`). */
  readonly rootCAConfigMap: string;
  /**
   * The built-in signers' names. The specification renames them beyond the domain (component prefixes
   * dropped, the node agent for the kubelet): `orch.io/apiserver-client-node-agent` is upstream's
   * `kubernetes.io/kube-apiserver-client-kubelet`.
   */
  readonly signers: Readonly<Record<SignerKind, string>>;
}

const signerPaths: Readonly<Record<ProfileName, Readonly<Record<SignerKind, string>>>> = {
  orch: {
    apiserverClient: 'apiserver-client',
    apiserverClientKubelet: 'apiserver-client-node-agent',
    kubeletServing: 'node-agent-serving',
    legacyUnknown: 'legacy-unknown',
  },
  kubernetes: {
    apiserverClient: 'kube-apiserver-client',
    apiserverClientKubelet: 'kube-apiserver-client-kubelet',
    kubeletServing: 'kubelet-serving',
    legacyUnknown: 'legacy-unknown',
  },
};

function makeProfile(name: ProfileName, word: string, suffix: string, labelDomain: string): NamingProfile {
  const prefix = `${labelDomain}/`;
  const metaGroup = `meta.${suffix}`;
  const shortWord = word === 'orch' ? 'orch' : 'kube';
  const systemNamespace = `${shortWord}-system`;
  const publicNamespace = `${shortWord}-public`;
  const nodeLeaseNamespace = `${shortWord}-node-lease`;
  const paths = signerPaths[name];
  return {
    name,
    groupSuffix: suffix,
    prefix,
    labelDomain,
    word,
    shortWord,
    protobufMediaType: `application/vnd.${word}.protobuf`,
    systemNamespace,
    publicNamespace,
    nodeLeaseNamespace,
    metaGroup,
    suffixed: (base) => `${base}.${suffix}`,
    ext: (n) => `x-${word}-${n}`,
    prefixed: (n) => `${prefix}${n}`,
    subPrefixed: (sub, n) => `${sub}.${labelDomain}/${n}`,
    groupPrefixed: (n) => `${suffix}/${n}`,
    definitionPrefix: `io.${word === 'orch' ? 'orch' : 'k8s'}.`,
    tableMediaType: `application/json;as=Table;v=v1;g=${metaGroup}`,
    namespaceFinalizer: word,
    initialNamespaces: ['default', systemNamespace, publicNamespace, nodeLeaseNamespace],
    rootCAConfigMap: `${shortWord}-root-ca.crt`,
    signers: {
      apiserverClient: `${prefix}${paths.apiserverClient}`,
      apiserverClientKubelet: `${prefix}${paths.apiserverClientKubelet}`,
      kubeletServing: `${prefix}${paths.kubeletServing}`,
      legacyUnknown: `${prefix}${paths.legacyUnknown}`,
    },
  };
}

export const PROFILES: Readonly<Record<ProfileName, NamingProfile>> = {
  orch: makeProfile('orch', 'orch', 'orch.io', 'orch.io'),
  kubernetes: makeProfile('kubernetes', 'kubernetes', 'k8s.io', 'kubernetes.io'),
};

export function namingProfile(name: ProfileName = 'orch'): NamingProfile {
  return PROFILES[name];
}

export function isProfileName(value: string): value is ProfileName {
  return value === 'orch' || value === 'kubernetes';
}

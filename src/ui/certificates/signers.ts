/**
 * The four built-in signers and what each demands of a request, checked
 * while the learner types: the API's own validation (signer name, usages,
 * `expirationSeconds`, the legacy signer refused through v1), the
 * CertificateSubjectRestriction admission plugin (no `system:masters` for
 * the client signer), and each signer's rules in the order the real signing
 * controller applies them — the first broken one is the message its
 * `Failed` condition will carry, so the form names it before submitting.
 */

import type { ApiNames, SignerKind } from './names';

/** What the form holds; SANs and groups already split into lists. */
export interface RequestDraft {
  commonName: string;
  organizations: string[];
  signerName: string;
  usages: string[];
  dnsNames: string[];
  ipAddresses: string[];
  /** Empty: not set (the signer's default lifetime). */
  expirationSeconds: string;
}

export interface SignerInfo {
  kind: SignerKind | 'custom';
  name: string;
  /** One line saying what the signer is for. */
  purpose: string;
  /** The usages the form offers for this signer; the ones it starts with. */
  usages: readonly string[];
  defaultUsages: readonly string[];
  sans: 'allowed' | 'required' | 'forbidden';
  autoApproved: boolean;
}

/** Where a rule is enforced, which decides how breaking it shows up. */
export type RuleSource = 'form' | 'api' | 'admission' | 'signer';

export interface RuleCheck {
  /** The rule, stated. */
  rule: string;
  source: RuleSource;
  ok: boolean;
  /** What the server answers when the rule is broken (the signer's Failed message, the 422 or 403 text). */
  message?: string;
  /** The broken rule the server reports: the first broken signer rule, or any broken api/admission/form rule. */
  reported?: boolean;
}

const clientUsages = ['digital signature', 'key encipherment', 'client auth'] as const;
const servingUsages = ['digital signature', 'key encipherment', 'server auth'] as const;
/** A small, common part of the known usages: enough to try the legacy and custom signers. */
const otherUsages = [
  'digital signature',
  'key encipherment',
  'client auth',
  'server auth',
  'code signing',
  'email protection',
] as const;

export function builtInSigners(names: ApiNames): SignerInfo[] {
  const s = names.signers;
  return [
    {
      kind: 'apiserverClient',
      name: s.apiserverClient,
      purpose: 'Client certificates the API server trusts: CN is the user name, each O a group.',
      usages: clientUsages,
      defaultUsages: ['digital signature', 'key encipherment', 'client auth'],
      sans: 'allowed',
      autoApproved: false,
    },
    {
      kind: 'apiserverClientKubelet',
      name: s.apiserverClientKubelet,
      purpose: 'Client certificates for node agents: CN system:node:<name>, O system:nodes.',
      usages: clientUsages,
      defaultUsages: clientUsages,
      sans: 'forbidden',
      autoApproved: true,
    },
    {
      kind: 'kubeletServing',
      name: s.kubeletServing,
      purpose: "Serving certificates for node agents' HTTPS endpoints: needs a DNS name or an IP.",
      usages: servingUsages,
      defaultUsages: servingUsages,
      sans: 'required',
      autoApproved: false,
    },
    {
      kind: 'legacyUnknown',
      name: s.legacyUnknown,
      purpose: 'Signs anything, with no standard trust; refused through certificates v1.',
      usages: otherUsages,
      defaultUsages: ['digital signature', 'key encipherment', 'client auth'],
      sans: 'allowed',
      autoApproved: false,
    },
  ];
}

/** A signer name no built-in signer owns: accepted and approvable, never signed here. */
export function customSigner(name: string): SignerInfo {
  return {
    kind: 'custom',
    name,
    purpose: 'A custom signer: the sandbox has no controller for it, so an approved request stays unsigned.',
    usages: otherUsages,
    defaultUsages: ['digital signature', 'key encipherment', 'client auth'],
    sans: 'allowed',
    autoApproved: false,
  };
}

export function signerFor(names: ApiNames, signerName: string): SignerInfo {
  return builtInSigners(names).find((s) => s.name === signerName) ?? customSigner(signerName);
}

const signerNamePattern =
  /^(?=.{1,253}\/)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+\/[A-Za-z0-9][-A-Za-z0-9_.]*$/;
const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** A dotted IPv4 or an IPv6 address (as the URL parser reads one). */
export function isIPAddress(text: string): boolean {
  if (ipv4.test(text)) return true;
  if (!text.includes(':')) return false;
  try {
    return new URL(`http://[${text}]/`).hostname !== '';
  } catch {
    return false;
  }
}

const dnsName = /^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/i;

/** `[a b c]` as Go prints a sorted string list, which is how the real signer quotes the expected usages. */
function goList(items: readonly string[]): string {
  return `[${[...items].sort().join(' ')}]`;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

function check(rule: string, source: RuleSource, ok: boolean, message?: string): RuleCheck {
  return message === undefined || ok ? { rule, source, ok } : { rule, source, ok, message };
}

/** The signer's own rules, in the order its controller checks them. */
function signerRules(signer: SignerInfo, d: RequestDraft): RuleCheck[] {
  const nodes = sameSet(d.organizations, ['system:nodes']) && d.organizations.length === 1;
  const nodeName = d.commonName.startsWith('system:node:');
  const usagesAre = (set: readonly string[]) =>
    sameSet(d.usages, set) ||
    sameSet(
      d.usages,
      set.filter((u) => u !== 'key encipherment'),
    );
  switch (signer.kind) {
    case 'apiserverClient': {
      const invalid = d.usages.find((u) => !clientUsages.includes(u as (typeof clientUsages)[number]));
      return [
        check(
          'Usages only from digital signature, key encipherment, client auth',
          'signer',
          invalid === undefined,
          `invalid usage for client certificate: ${invalid ?? ''}`,
        ),
        check(
          'Usages include client auth',
          'signer',
          d.usages.includes('client auth'),
          'missing required usage for client certificate: client auth',
        ),
      ];
    }
    case 'apiserverClientKubelet':
      return [
        check('O is exactly system:nodes', 'signer', nodes, 'subject organization is not system:nodes'),
        check(
          'No DNS subjectAltNames',
          'signer',
          d.dnsNames.length === 0,
          'DNS subjectAltNames are not allowed',
        ),
        check(
          'No IP subjectAltNames',
          'signer',
          d.ipAddresses.length === 0,
          'IP subjectAltNames are not allowed',
        ),
        check(
          'CN starts with system:node:',
          'signer',
          nodeName,
          'subject common name does not begin with system:node:',
        ),
        check(
          'Usages exactly digital signature, key encipherment (optional for non-RSA keys), client auth',
          'signer',
          usagesAre(clientUsages),
          `usages did not match ${goList(clientUsages)}`,
        ),
      ];
    case 'kubeletServing':
      return [
        check('O is exactly system:nodes', 'signer', nodes, 'subject organization is not system:nodes'),
        check(
          'At least one DNS or IP subjectAltName',
          'signer',
          d.dnsNames.length + d.ipAddresses.length > 0,
          'DNS or IP subjectAltName is required',
        ),
        check(
          'Usages exactly digital signature, key encipherment (optional for non-RSA keys), server auth',
          'signer',
          usagesAre(servingUsages),
          `usages did not match ${goList(servingUsages)}`,
        ),
        check(
          'CN starts with system:node:',
          'signer',
          nodeName,
          'subject common name does not begin with system:node:',
        ),
      ];
    default:
      return [];
  }
}

/** Every rule that applies to the draft, with the ones it breaks and the message each would bring. */
export function checkDraft(names: ApiNames, d: RequestDraft): RuleCheck[] {
  const signer = signerFor(names, d.signerName);
  const seconds = d.expirationSeconds.trim();
  const secondsValue = Number(seconds);
  const badIPs = d.ipAddresses.filter((ip) => !isIPAddress(ip));
  const badDNS = d.dnsNames.filter((n) => !dnsName.test(n));
  const out: RuleCheck[] = [
    check('CN (the user name) is set', 'form', d.commonName.trim() !== '', 'enter a user name for CN'),
    check(
      'Every IP SAN is an IP address and every DNS SAN a host name',
      'form',
      badIPs.length === 0 && badDNS.length === 0,
      `not an address: ${[...badIPs, ...badDNS].join(', ')}`,
    ),
    check(
      'signerName has the form <domain>/<path>',
      'api',
      signerNamePattern.test(d.signerName),
      `spec.signerName: Invalid value: "${d.signerName}": must be a fully qualified domain and path of the form 'example.com/signer-name'`,
    ),
    check(
      'Not the legacy signer (refused through v1)',
      'api',
      d.signerName !== names.signers.legacyUnknown,
      `spec.signerName: Invalid value: "${d.signerName}": the legacy signerName is not allowed via this API version`,
    ),
    check('At least one usage', 'api', d.usages.length > 0, 'spec.usages: Required value'),
    check(
      'expirationSeconds, when set, is at least 600',
      'api',
      seconds === '' || (Number.isInteger(secondsValue) && secondsValue >= 600),
      `spec.expirationSeconds: Invalid value: ${seconds}: may not specify a duration less than 600 seconds (10 minutes)`,
    ),
  ];
  if (signer.kind === 'apiserverClient')
    out.push(
      check(
        'O does not include system:masters (CertificateSubjectRestriction)',
        'admission',
        !d.organizations.includes('system:masters'),
        `use of ${signer.name} signer with system:masters group is not allowed`,
      ),
    );
  let reported = false;
  for (const rule of signerRules(signer, d)) {
    // The signer stops at its first broken rule: that one is the Failed condition's message.
    if (!rule.ok && !reported) {
      reported = true;
      out.push({ ...rule, reported: true });
    } else out.push(rule);
  }
  return out.map((r) => (r.ok || r.source === 'signer' ? r : { ...r, reported: true }));
}

/** The broken rules no request can be built without (the rest the server is left to refuse, to be seen). */
export function blocking(checks: readonly RuleCheck[]): RuleCheck[] {
  return checks.filter((c) => !c.ok && c.source === 'form');
}

/** Who will refuse the draft first: the API server (422/403), the signer (Failed), or nobody. */
export function outcome(checks: readonly RuleCheck[]): 'form' | 'api' | 'admission' | 'signer' | 'ok' {
  for (const source of ['form', 'api', 'admission', 'signer'] as const)
    if (checks.some((c) => !c.ok && c.source === source)) return source;
  return 'ok';
}

const failureRules: [string, string][] = [
  [
    'invalid usage for client certificate',
    'Usages only from digital signature, key encipherment, client auth',
  ],
  ['missing required usage for client certificate', 'Usages include client auth'],
  ['subject organization is not system:nodes', 'O is exactly system:nodes'],
  ['subject common name does not begin with system:node:', 'CN starts with system:node:'],
  ['DNS or IP subjectAltName is required', 'At least one DNS or IP subjectAltName'],
  ['DNS subjectAltNames are not allowed', 'No DNS subjectAltNames'],
  ['IP subjectAltNames are not allowed', 'No IP subjectAltNames'],
  ['Email subjectAltNames are not allowed', 'No email subjectAltNames'],
  ['URI subjectAltNames are not allowed', 'No URI subjectAltNames'],
  ['usages did not match', 'Usages exactly the set the signer issues'],
];

/** The rule a signer's `Failed` message names, in the words of the form's rule list. */
export function ruleOfFailure(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  const lower = message.toLowerCase();
  return failureRules.find(([m]) => lower.includes(m.toLowerCase()))?.[1];
}

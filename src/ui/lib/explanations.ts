/**
 * Errors that teach: one table from what a failure says (HTTP code, Status
 * reason, cause type and field, message pattern) to a short explanation —
 * the rule behind it, the spec section that states it, and what to do next —
 * and the matcher that picks the first entry that fits. The table is data so
 * that later work (403 explanations from the identity work, webhook denials
 * from admission) adds entries here rather than code in the views; every
 * entry must be reachable by a real request (test/explanations.test.ts).
 * The server's own text is always shown as well (ErrorNotice); this only
 * adds to it. No DOM and no React here, so the test imports it in Node.
 * Texts may hold `code` in backticks; ErrorNotice renders it as code.
 */

import type { StatusCause } from '../../api/meta';

/** What the matcher reads: a Status (from an ApiError or a watch ERROR event), or a plain error's message. */
export interface Problem {
  code?: number;
  reason?: string;
  message: string;
  causes?: StatusCause[];
  details?: { kind?: string; name?: string };
}

/**
 * A section of the spec documents, which are not shipped, as error explanations link to it; the in-app
 * "Spec sections" page (spec-sections.ts) adds where it is and what it says.
 */
export interface SpecSectionTitle {
  document: 'Core Interface' | 'Authentication and Admission';
  section: string;
}

export const specSections = {
  'core-object-envelope': { document: 'Core Interface', section: 'Object envelope' },
  'core-field-validation': { document: 'Core Interface', section: 'Field validation' },
  'core-content-negotiation': { document: 'Core Interface', section: 'Content negotiation' },
  'core-resource-version-semantics': { document: 'Core Interface', section: 'Resource version semantics' },
  'core-watching': { document: 'Core Interface', section: 'Watching' },
  'core-server-side-apply': { document: 'Core Interface', section: 'Server-side apply' },
  'core-states-and-transitions': { document: 'Core Interface', section: 'States and transitions' },
  'core-errors': { document: 'Core Interface', section: 'Errors' },
  'auth-errors': { document: 'Authentication and Admission', section: 'Errors' },
} as const satisfies Record<string, SpecSectionTitle>;

export type SpecSectionId = keyof typeof specSections;

/** The link text for a section: "Spec: Core Interface › Field validation". */
export function specLinkText(id: SpecSectionId): string {
  const s: SpecSectionTitle = specSections[id];
  return `Spec: ${s.document} › ${s.section}`;
}

/** A line of the user's text (or a value) with the part the error is about marked. */
export interface Excerpt {
  caption: string;
  text: string;
  /** Start and end (exclusive) of the marked part of `text`. */
  mark?: [number, number];
}

export interface Explanation {
  /** The entry that matched, for tests and for `data-explanation` in the page. */
  id: string;
  rule: string;
  next: string;
  spec: SpecSectionId;
  excerpt?: Excerpt;
}

/** What an entry's text may use: the problem, the regex groups of its message pattern, the cause it matched, the text sent. */
interface Match {
  problem: Problem;
  /** The message pattern's groups; a group that did not take part is undefined. */
  groups: (string | undefined)[];
  cause: StatusCause | undefined;
  source: string | undefined;
}

export interface ExplanationEntry {
  id: string;
  /** Every condition given must hold. `message` is tested against the Status message, then each cause's message. */
  when: {
    code?: number;
    reason?: string;
    causeReason?: string;
    causeField?: RegExp;
    message?: RegExp;
    detailsKind?: string;
  };
  spec: SpecSectionId;
  explain: (match: Match) => Omit<Explanation, 'id' | 'spec'>;
}

/** A value the YAML reader takes as a number, boolean or null rather than a string. */
const nonString = /^(-?\d+(\.\d+)?([eE][-+]?\d+)?|0x[0-9a-fA-F]+|true|false|yes|no|on|off|null|~)$/i;

/** The first `key: value` under `data:`/`stringData:` whose value YAML would not read as a string. */
function unquotedDataValue(
  source: string | undefined,
): { line: string; key: string; value: string } | undefined {
  if (source === undefined) return undefined;
  let inData = false;
  for (const line of source.split('\n')) {
    if (/^(data|stringData):\s*$/.test(line)) {
      inData = true;
      continue;
    }
    if (/^\S/.test(line)) inData = false;
    const m = inData ? /^\s+([^\s:#]+):\s*([^#]*?)\s*$/.exec(line) : null;
    if (m !== null && m[1] !== undefined && m[2] !== undefined && nonString.test(m[2]))
      return { line, key: m[1], value: m[2] };
  }
  return undefined;
}

function lineOf(source: string | undefined, lineNumber: number): string | undefined {
  return source?.split('\n')[lineNumber - 1];
}

/** The parser's complaint in plain words. */
function plainSyntax(words: string): string {
  if (
    /same column|indentation|compact mapping|expected key|mapping values are not allowed|map keys/i.test(
      words,
    )
  )
    return 'the indentation does not line up: the keys of one map must start in the same column';
  if (/could not find expected ':'|implicit key|missing.*colon/i.test(words))
    return 'a key is missing its colon';
  if (/tab/i.test(words)) return 'a tab character: YAML indents with spaces only';
  if (/unexpected end|end of (the )?stream|missing closing|unterminated/i.test(words))
    return 'the text ends in the middle of something: an unclosed quote, bracket or brace';
  return words.trim();
}

/** The parts of a name that break the DNS rules: the first offending character. */
function offendingCharacter(value: string, label: boolean): [number, number] | undefined {
  const allowed = label ? /[a-z0-9-]/ : /[a-z0-9.-]/;
  for (let i = 0; i < value.length; i++) {
    const c = value.charAt(i);
    const edge = i === 0 || i === value.length - 1;
    if (!allowed.test(c) || (edge && !/[a-z0-9]/.test(c))) return [i, i + 1];
  }
  return undefined;
}

function suggestedName(value: string, label: boolean): string {
  const fixed = value
    .toLowerCase()
    .replace(label ? /[^a-z0-9-]+/g : /[^a-z0-9.-]+/g, '-')
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '')
    .slice(0, label ? 63 : 253);
  return fixed === '' ? 'my-name' : fixed;
}

const fieldList = (causes: StatusCause[]): string => causes.map((c) => `\`${c.field ?? '?'}\``).join(', ');

/**
 * The table. Order matters: the first entry whose conditions hold wins, so specific entries come before
 * general ones (a ConfigMap value before any field type). Add 403 and webhook denials here.
 */
export const explanationEntries: readonly ExplanationEntry[] = [
  {
    id: 'configmap-value-not-string',
    when: {
      code: 400,
      message: /cannot unmarshal (\w+) into Go struct field (ConfigMap|Secret)\.(\w+) of type string/,
    },
    spec: 'core-field-validation',
    explain: ({ groups, source }) => {
      const found = unquotedDataValue(source);
      const kind = groups[2] ?? 'ConfigMap';
      const rule = `${kind} \`${groups[3] ?? 'data'}\` values are strings. YAML reads an unquoted \`3\`, \`true\` or \`null\` as a ${groups[1] ?? 'number'} or boolean, and the server checks every field's type.`;
      if (found === undefined) return { rule, next: 'Quote the value: `count: "3"` instead of `count: 3`.' };
      const at = found.line.lastIndexOf(found.value);
      return {
        rule,
        next: `Quote it: \`${found.key}: "${found.value}"\`.`,
        excerpt: { caption: 'In your text', text: found.line, mark: [at, at + found.value.length] },
      };
    },
  },
  {
    id: 'field-type',
    when: {
      code: 400,
      message: /cannot unmarshal (\w+) into Go struct field \w+\.([\w.]+) of type ([\w.[\]]+)/,
    },
    spec: 'core-field-validation',
    explain: ({ groups }) => ({
      rule: `\`${groups[2] ?? '?'}\` must be of type ${groups[3] ?? '?'}, and the text gives a ${groups[1] ?? '?'}. The server checks every field's type before anything else.`,
      next:
        groups[3] === 'string'
          ? 'Quote the value, so YAML reads it as a string: `"3"`, `"true"`.'
          : `Change the value to a ${groups[3] ?? '?'}; the editor's completion shows each field's type.`,
    }),
  },
  {
    id: 'unknown-field-strict',
    when: { code: 400, message: /strict decoding error: unknown field "([^"]+)"/ },
    spec: 'core-field-validation',
    explain: ({ groups }) => ({
      rule: `The kind has no field \`${groups[1] ?? '?'}\`. With \`fieldValidation=Strict\` an unknown or duplicate field is refused; under the default (\`Warn\`) it would be dropped with a Warning header.`,
      next: `Check the spelling of \`${groups[1] ?? '?'}\` (the editor completes field names), or drop \`fieldValidation=Strict\`.`,
    }),
  },
  {
    id: 'body-syntax',
    when: {
      message:
        /yaml: line (\d+): ([^(]+)|json parse error: ([^(]+)|neither YAML nor JSON: (.+?)(?: at line (\d+), column \d+|$)/s,
    },
    spec: 'core-content-negotiation',
    explain: ({ groups, source }) => {
      const line = Number(groups[1] ?? groups[5] ?? '0');
      const words = plainSyntax(groups[2] ?? groups[3] ?? groups[4] ?? '');
      const text = line > 0 ? lineOf(source, line) : undefined;
      return {
        rule: `The text is not valid ${groups[3] !== undefined ? 'JSON' : 'YAML'}${line > 0 ? ` at line ${line}` : ''}: ${words}. Nothing is checked until the whole body parses.`,
        next:
          line > 0
            ? `Fix line ${line}: indent with spaces, two per level, lined up with the keys beside it.`
            : 'Close every quote, bracket and brace, or write the object as YAML.',
        ...(text !== undefined
          ? { excerpt: { caption: `Line ${line}`, text, mark: [0, text.length] as [number, number] } }
          : {}),
      };
    },
  },
  {
    id: 'name-not-dns',
    when: {
      reason: 'Invalid',
      causeField: /(^|\.)metadata\.(name|generateName)$/,
      message: /RFC 1123 (subdomain|label)/,
    },
    spec: 'core-object-envelope',
    explain: ({ cause, groups }) => {
      const value = /Invalid value: "([^"]*)"/.exec(cause?.message ?? '')?.[1] ?? '';
      const label = groups[1] === 'label';
      const mark = offendingCharacter(value, label);
      return {
        rule: label
          ? 'This name is a DNS label: lowercase letters, digits and `-`, starting and ending with a letter or digit, at most 63 characters (no dots).'
          : 'Names are DNS subdomains: lowercase letters, digits, `-` and `.`, starting and ending with a letter or digit, at most 253 characters.',
        next: `Use a name such as \`${suggestedName(value, label)}\`.`,
        excerpt: {
          caption: mark === undefined ? 'The name' : 'The first character not allowed',
          text: value,
          ...(mark === undefined ? {} : { mark }),
        },
      };
    },
  },
  {
    id: 'field-immutable',
    when: { code: 422, message: /field is immutable/ },
    spec: 'core-object-envelope',
    explain: ({ problem }) => {
      const fields = (problem.causes ?? []).filter((c) => /immutable/.test(c.message ?? ''));
      return {
        rule: `${fields.length > 0 ? fieldList(fields) : 'This field'} cannot change once the object exists: other objects, controllers and the store's history refer to the object by it, so an update that changes it is refused.`,
        next: 'Reload the object and keep the field as stored. To change it anyway, delete the object and create it again: that is a new object, with a new uid and history.',
      };
    },
  },
  {
    id: 'field-required',
    when: { code: 422, causeReason: 'FieldValueRequired' },
    spec: 'core-field-validation',
    explain: ({ problem }) => ({
      rule: `${fieldList((problem.causes ?? []).filter((c) => c.reason === 'FieldValueRequired'))} ${problem.details?.kind === undefined ? 'is' : `is required for a ${problem.details.kind} and is`} missing. The server validates every write against the kind's rules.`,
      next: 'Add it (the editor completes field names and shows their types), or start again from the kind’s template.',
    }),
  },
  {
    id: 'stale-resource-version',
    when: { code: 409, reason: 'Conflict', message: /the object has been modified/ },
    spec: 'core-resource-version-semantics',
    explain: () => ({
      rule: 'The text carried a `metadata.resourceVersion` that is no longer current: someone (another tab, a controller) changed the object after you read it, and a write with a resourceVersion succeeds only against that exact version.',
      next: 'Reload the object, make your change again on top of it, and send it again. Or remove `resourceVersion` from the text, or use Apply, which needs none.',
    }),
  },
  {
    id: 'apply-conflict',
    when: { code: 409, reason: 'Conflict', causeReason: 'FieldManagerConflict' },
    spec: 'core-server-side-apply',
    explain: ({ problem }) => ({
      rule: `This apply sets ${fieldList((problem.causes ?? []).filter((c) => c.reason === 'FieldManagerConflict'))} to a value other than the one its current manager applied. Apply refuses to take a field from another manager silently.`,
      next: 'Send again with `force=true` to take the field, drop it from your configuration, or set it to the server’s value to share it (the Apply lab shows all three).',
    }),
  },
  {
    id: 'already-exists',
    when: { code: 409, reason: 'AlreadyExists' },
    spec: 'core-object-envelope',
    explain: ({ problem }) => ({
      rule: `There already is a ${problem.details?.kind ?? 'object'} named \`${problem.details?.name ?? '?'}\` here: a name is unique per kind within a namespace (across the cluster for cluster-scoped kinds).`,
      next: 'Choose another name (or set `generateName` and leave out the name), or open the existing object and update it.',
    }),
  },
  {
    id: 'namespace-not-found',
    when: { code: 404, reason: 'NotFound', detailsKind: 'namespaces' },
    spec: 'core-states-and-transitions',
    explain: ({ problem }) => ({
      rule: `There is no namespace \`${problem.details?.name ?? '?'}\`: a namespaced object can only be created in a namespace that exists (and goes when its namespace is deleted).`,
      next: 'Create the namespace first (pick Namespace on the left), or change `metadata.namespace` to one that exists.',
    }),
  },
  {
    id: 'not-found',
    when: { code: 404, reason: 'NotFound' },
    spec: 'core-object-envelope',
    explain: ({ problem }) => ({
      rule: `No ${problem.details?.kind ?? 'object'} \`${problem.details?.name ?? '?'}\` exists here: it was deleted, or the name, kind or namespace differ.`,
      next: 'Check the name and namespace in the explorer; to bring it back, create it again (it will be a new object).',
    }),
  },
  {
    id: 'unauthorized',
    when: { code: 401 },
    spec: 'auth-errors',
    explain: () => ({
      rule: 'The request carried a credential (a token or a certificate) and no authenticator accepted it: expired, revoked, signed by an issuer the server does not trust, or simply wrong. A request with no credential at all is not refused but treated as `system:anonymous`.',
      next: 'Pick a working identity with Acting as in the header (mint a new OIDC token there if it expired). The table below lists every authenticator that was tried and why it said no.',
    }),
  },
  {
    id: 'forbidden-impersonate',
    when: { code: 403, reason: 'Forbidden', message: /cannot impersonate resource "(\w+)"/ },
    spec: 'auth-errors',
    explain: ({ groups }) => ({
      rule: `Impersonation is authorized first, as the real caller: it needs the \`impersonate\` verb on \`${groups[1] ?? 'users'}\` (and on \`groups\`, \`uids\` for the other headers). Only after that is the request authorized as the impersonated user.`,
      next: 'Act as an identity that may impersonate (admin), or clear the impersonation fields under Acting as in the header.',
    }),
  },
  {
    id: 'forbidden',
    when: { code: 403, reason: 'Forbidden', message: /User "([^"]*)" cannot (\S+)/ },
    spec: 'auth-errors',
    explain: ({ groups }) => ({
      rule: `\`${groups[1] ?? '?'}\` holds no rule that allows \`${groups[2] ?? '?'}\` here. Authorization denies whatever no authorizer allows: RBAC has only grants, no deny rules, and a grant must match the verb, API group, resource (and name) and namespace exactly.`,
      next: 'Below: the bindings that apply to you, the rule that came closest and what it lacks, and the Role and binding that would allow exactly this request, appliable as admin after a dry run.',
    }),
  },
  {
    // After `forbidden`: an authorization refusal also says "is forbidden:", and names the user.
    id: 'admission-denied',
    when: {
      code: 403,
      message:
        // Each alternative scans from the start, so the first that fits anywhere wins (not the leftmost match).
        /^(?:.*?admission webhook "([^"]+)" denied the request|.*?(violates PodSecurity "[^"]+")|.*?ValidatingAdmissionPolicy '([^']+)'|.*?(exceeded quota)|.*?is forbidden: )/s,
    },
    spec: 'auth-errors',
    explain: ({ groups }) => {
      const who =
        groups[1] !== undefined
          ? `the validating webhook \`${groups[1]}\``
          : groups[2] !== undefined
            ? 'the PodSecurity plugin'
            : groups[3] !== undefined
              ? `the ValidatingAdmissionPolicy \`${groups[3]}\``
              : groups[4] !== undefined
                ? 'the ResourceQuota plugin'
                : 'an admission step';
      return {
        rule: `Authentication and authorization let the write through; then admission refused it: ${who} said no. Admission runs on every write, a dry run too (only the storing is skipped), so a dry run is refused exactly as the write would be.`,
        next: 'Open the admission trace: it lists every plugin, policy and webhook in the order they ran, what each saw and which refused. Change the object to meet the rule, or, as admin, the rule itself (the namespace’s labels, the quota, the policy or webhook; Workshop → Admission turns plugins on and off).',
      };
    },
  },
  {
    id: 'history-expired',
    when: { code: 410 },
    spec: 'core-watching',
    explain: () => ({
      rule: 'The request started from a resourceVersion older than the server still serves, so the changes since then can no longer be replayed. A watch is served from the watch cache, which keeps a window of recent changes per resource from when it started (a server restart, or Reset watch cache); an Exact list or a continue token reads the stored history, which compaction drops (its history window; Workshop → Settings).',
      next: 'List again and watch from the list’s resourceVersion. That is what an informer does on 410 Gone: drop its cache, relist, and watch from there.',
    }),
  },
];

function messages(problem: Problem): string[] {
  return [problem.message, ...(problem.causes ?? []).map((c) => c.message ?? '')];
}

/** The first entry of `entries` that fits `problem`, with its text; `source` is the text that was sent, when known. */
export function explain(
  problem: Problem,
  source?: string,
  entries: readonly ExplanationEntry[] = explanationEntries,
): Explanation | undefined {
  for (const entry of entries) {
    const w = entry.when;
    if (w.code !== undefined && problem.code !== w.code) continue;
    if (w.reason !== undefined && problem.reason !== w.reason) continue;
    if (w.detailsKind !== undefined && problem.details?.kind !== w.detailsKind) continue;
    const causes = (problem.causes ?? []).filter(
      (c) =>
        (w.causeReason === undefined || c.reason === w.causeReason) &&
        (w.causeField === undefined || w.causeField.test(c.field ?? '')),
    );
    if ((w.causeReason !== undefined || w.causeField !== undefined) && causes.length === 0) continue;
    let groups: (string | undefined)[] = [];
    if (w.message !== undefined) {
      const pattern = w.message;
      const texts =
        causes.length > 0 ? [problem.message, ...causes.map((c) => c.message ?? '')] : messages(problem);
      const hit = texts.map((t) => pattern.exec(t)).find((m) => m !== null);
      if (hit === undefined) continue;
      groups = Array.from(hit);
    }
    const text = entry.explain({ problem, groups, cause: causes[0], source });
    return { id: entry.id, spec: entry.spec, ...text };
  }
  return undefined;
}

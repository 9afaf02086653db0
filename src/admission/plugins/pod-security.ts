/**
 * PodSecurity: the Pod Security Standards (privileged, baseline,
 * restricted) per namespace, chosen by the namespace's
 * `pod-security.<label domain>/enforce|audit|warn` labels and their
 * `-version` pins over the configured defaults. Enforce refuses pods (403),
 * warn answers `Warning` headers, audit adds
 * `pod-security.<label domain>/*` audit annotations; workloads are checked
 * on their pod template for warn and audit only; namespace writes have
 * their labels validated and a stricter enforce level dry-run against the
 * existing pods. The checks and their version history live in
 * ../pod-security/, loaded with the first write that needs them: a pod, a
 * pod template, or a namespace with pod-security labels before or after
 * (one without any is allowed as it is, with nothing to warn or record).
 */

import type { KubeObject } from '../../api/meta';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionPluginFactory, NamespaceLister } from '../types';
import { PROFILES, type NamingProfile } from '../../machinery/naming';
import { parsePodSecurityConfig, type PodSecurityConfig } from '../pod-security/config';
import type { Decision } from '../pod-security/decision';
import type { Evaluator } from '../pod-security/evaluator';
import { modes, policyLabels, type PolicyLabels } from '../pod-security/levels';
import type { PodRequest } from '../pod-security/pod-check';
import { hasPodTemplate } from '../pod-security/pod-spec';
import { podSecurityChecks } from '../pod-security/library';
import type * as PodSecurityChecks from '../pod-security/pod-security-checks.lazy';

export interface PodSecurityOptions {
  profile: NamingProfile;
  config: PodSecurityConfig;
  namespaces: NamespaceLister;
  /** The pods of a namespace (for dry-running a new enforce level). */
  listPods(namespace: string): Promise<readonly KubeObject[]>;
  evaluator?: Evaluator;
}

export const podSecurity: AdmissionPluginFactory = (deps) => {
  const pods = deps.lister('', 'pods');
  return podSecurityPlugin({
    profile: deps.profile,
    config: parsePodSecurityConfig(deps.config, deps.profile),
    namespaces: deps.namespaces,
    async listPods(namespace) {
      await deps.listersSynced();
      return pods.list(namespace);
    },
  });
};

export function podSecurityPlugin(options: PodSecurityOptions): AdmissionPlugin {
  const labels = policyLabels(options.profile);
  const annotationPrefix = options.profile.subPrefixed('pod-security', '');
  // In a renamed profile the upstream keys are what a learner copies from tutorials; they
  // select nothing here, so each write carrying one is told which key this profile reads.
  const upstream = policyLabels(PROFILES.kubernetes);
  const foreignLabels = upstream.level.enforce === labels.level.enforce ? undefined : upstream;
  const policyKeys = new Set(
    [labels, ...(foreignLabels === undefined ? [] : [foreignLabels])].flatMap((l) =>
      modes.flatMap((m) => [l.level[m], l.version[m]]),
    ),
  );
  const hasPolicyLabel = (o: KubeObject | undefined): boolean =>
    Object.keys(o?.metadata?.labels ?? {}).some((k) => policyKeys.has(k));

  /** The checks, loaded once, with the evaluator they share. */
  let loaded: { checks: typeof PodSecurityChecks; evaluator: Evaluator } | undefined;
  async function load(): Promise<{ checks: typeof PodSecurityChecks; evaluator: Evaluator }> {
    if (loaded !== undefined) return loaded;
    const checks = await podSecurityChecks.load();
    loaded ??= { checks, evaluator: options.evaluator ?? checks.newEvaluator() };
    return loaded;
  }

  async function decide(a: AdmissionAttributes): Promise<Decision | undefined> {
    if (a.group === '' && a.resource === 'namespaces') {
      // Subresources (status, finalize) cannot change labels.
      if (a.subresource !== '' || a.object === undefined) return undefined;
      // Without a policy label on either side the namespace is under the defaults before and after: nothing
      // to validate, dry-run, warn of or record (what the checks would decide too), so they are not loaded.
      if (!hasPolicyLabel(a.object) && !hasPolicyLabel(a.oldObject)) return undefined;
      const { checks, evaluator } = await load();
      const nsCtx = { config: options.config, labels, evaluator, listPods: options.listPods };
      // A namespace's own requests carry its name as their namespace.
      const name = a.name !== '' ? a.name : (a.object.metadata?.name ?? '');
      const decision = await checks.checkNamespace(nsCtx, a.operation, name, a.object, a.oldObject);
      return withForeignLabelWarnings(decision, a.object, labels, foreignLabels);
    }
    const isPod = a.group === '' && a.resource === 'pods';
    if (!isPod && !hasPodTemplate(a.group, a.resource)) return undefined;
    const req: PodRequest = {
      operation: a.operation,
      group: a.group,
      resource: a.resource,
      subresource: a.subresource,
      namespace: a.namespace,
      name: a.name,
      username: a.user.username,
      ...(a.object === undefined ? {} : { object: a.object }),
      ...(a.oldObject === undefined ? {} : { oldObject: a.oldObject }),
    };
    const { checks, evaluator } = await load();
    const podCtx = { config: options.config, labels, evaluator, namespaces: options.namespaces };
    return isPod ? checks.checkPod(podCtx, req) : checks.checkPodController(podCtx, req);
  }

  return {
    name: 'PodSecurity',
    operations: ['CREATE', 'UPDATE'],
    async validate(a: AdmissionAttributes): Promise<void> {
      const d = await decide(a);
      if (d === undefined) return;
      for (const w of d.warnings) a.warnings?.add(w);
      for (const [k, v] of Object.entries(d.annotations))
        a.annotations?.add(annotationPrefix + k, v, 'Metadata');
      if (d.error !== undefined) throw d.error;
    },
  };
}

/** One warning per pod-security label of another naming profile, naming the key this profile reads. */
function withForeignLabelWarnings(
  decision: Decision,
  object: KubeObject,
  labels: PolicyLabels,
  foreign: PolicyLabels | undefined,
): Decision {
  const present = object.metadata?.labels;
  if (foreign === undefined || present === undefined) return decision;
  const warnings: string[] = [];
  for (const kind of ['level', 'version'] as const)
    for (const mode of modes) {
      const key = foreign[kind][mode];
      if (present[key] !== undefined)
        warnings.push(
          `metadata.labels[${key}]: this label has no effect in this server's naming profile; Pod Security reads ${labels[kind][mode]}`,
        );
    }
  return warnings.length === 0 ? decision : { ...decision, warnings: [...decision.warnings, ...warnings] };
}

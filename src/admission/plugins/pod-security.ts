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
 * ../pod-security/.
 */

import type { KubeObject } from '../../api/meta';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionPluginFactory, NamespaceLister } from '../types';
import { PROFILES, type NamingProfile } from '../../machinery/naming';
import { parsePodSecurityConfig, type PodSecurityConfig } from '../pod-security/config';
import type { Decision } from '../pod-security/decision';
import { newEvaluator, type Evaluator } from '../pod-security/evaluator';
import { modes, policyLabels, type PolicyLabels } from '../pod-security/levels';
import { checkNamespace } from '../pod-security/namespace-check';
import { checkPod, checkPodController, type PodRequest } from '../pod-security/pod-check';
import { hasPodTemplate } from '../pod-security/pod-spec';

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
  const evaluator = options.evaluator ?? newEvaluator();
  const annotationPrefix = options.profile.subPrefixed('pod-security', '');
  const podCtx = { config: options.config, labels, evaluator, namespaces: options.namespaces };
  const nsCtx = { config: options.config, labels, evaluator, listPods: options.listPods };
  // In a renamed profile the upstream keys are what a learner copies from tutorials; they
  // select nothing here, so each write carrying one is told which key this profile reads.
  const upstream = policyLabels(PROFILES.kubernetes);
  const foreignLabels = upstream.level.enforce === labels.level.enforce ? undefined : upstream;

  async function decide(a: AdmissionAttributes): Promise<Decision | undefined> {
    if (a.group === '' && a.resource === 'namespaces') {
      // Subresources (status, finalize) cannot change labels.
      if (a.subresource !== '' || a.object === undefined) return undefined;
      // A namespace's own requests carry its name as their namespace.
      const name = a.name !== '' ? a.name : (a.object.metadata?.name ?? '');
      const decision = await checkNamespace(nsCtx, a.operation, name, a.object, a.oldObject);
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
    return isPod ? checkPod(podCtx, req) : checkPodController(podCtx, req);
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

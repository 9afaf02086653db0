/**
 * The parts of a pod the Pod Security Standards read, typed loosely over
 * the JSON a pod (or a workload's pod template) arrives as: every field is
 * optional because the checks run on whatever the client sent, before any
 * defaulting, exactly as the real library reads the external v1 types.
 * Also the small text helpers every check's message is built with.
 */

export interface SeccompProfile {
  type?: string;
  localhostProfile?: string;
}

export interface SELinuxOptions {
  user?: string;
  role?: string;
  type?: string;
  level?: string;
}

export interface WindowsOptions {
  hostProcess?: boolean;
}

export interface ContainerSecurityContext {
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
  procMount?: string;
  runAsNonRoot?: boolean;
  runAsUser?: number;
  seccompProfile?: SeccompProfile;
  seLinuxOptions?: SELinuxOptions;
  windowsOptions?: WindowsOptions;
}

export interface ContainerView {
  name?: string;
  image?: string;
  ports?: { hostPort?: number; containerPort?: number }[];
  securityContext?: ContainerSecurityContext;
}

export interface PodSecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  seccompProfile?: SeccompProfile;
  seLinuxOptions?: SELinuxOptions;
  sysctls?: { name?: string; value?: string }[];
  windowsOptions?: WindowsOptions;
}

/** A volume: its name and exactly one source field (hostPath, configMap, …). */
export type VolumeView = { name?: string } & Record<string, unknown>;

export interface PodSpecView {
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  os?: { name?: string };
  runtimeClassName?: string;
  securityContext?: PodSecurityContext;
  containers?: ContainerView[];
  initContainers?: ContainerView[];
  ephemeralContainers?: ContainerView[];
  volumes?: VolumeView[];
}

export interface PodMetaView {
  name?: string;
  annotations?: Record<string, string>;
  ownerReferences?: { uid?: string; controller?: boolean }[];
}

/** Init containers, then containers, then ephemeral containers: the order every message lists them in. */
export function visitContainers(spec: PodSpecView, visit: (c: ContainerView) => void): void {
  for (const c of spec.initContainers ?? []) visit(c);
  for (const c of spec.containers ?? []) visit(c);
  for (const c of spec.ephemeralContainers ?? []) visit(c);
}

export function pluralize(singular: string, plural: string, n: number): string {
  return n === 1 ? singular : plural;
}

/** `"a", "b"` — Go's %q of each, comma-joined. */
export function joinQuote(items: readonly string[]): string {
  return items.map((s) => JSON.stringify(s)).join(', ');
}

/** Sorted, without duplicates (the real checks collect values in string sets). */
export function sortedSet(items: Iterable<string>): string[] {
  return [...new Set(items)].sort();
}

/** `container "a"` or `containers "a", "b"`. */
export function containersPhrase(names: readonly string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}

/** Windows pods (spec.os.name=windows) are exempt from the Linux-only restricted checks from v1.25 on. */
export function isWindowsPod(spec: PodSpecView): boolean {
  return spec.os?.name === 'windows';
}

/**
 * A container's process as the kubelet sets it up: its environment (the
 * image's `PATH`, `HOSTNAME`, then `envFrom` and `env` in order with
 * `$(VAR)` references expanded and `valueFrom` resolved, the service
 * variables of the namespace's Services, `HOME`), its command line (the
 * pod's `command`/`args` or the image's ENTRYPOINT/CMD, with `$(VAR)`
 * expanded), and the files of its volume mounts. A reference that cannot
 * be resolved is a `ConfigError` with the kubelet's text, which the
 * container shows as `CreateContainerConfigError`.
 */

import type { KubeObject } from '../../api/meta';
import type { Container, Pod } from '../../api/pod';
import type { ImageSpec } from '../containers/images';
import type { ObjectSource } from './object-source';
import type { VolumeContent } from './volumes';
import { podFieldValue, resourceFieldValue } from './downward-api';

export class ConfigError extends Error {}

/** `$(VAR)` expanded from `vars` (unknown references stay as written); `$$(VAR)` is the literal `$(VAR)`. */
export function expandReferences(input: string, vars: ReadonlyMap<string, string>): string {
  return input.replace(/\$(\$|\(([A-Za-z_][A-Za-z0-9_.-]*)\))/g, (m, inner: string, name?: string) => {
    if (inner === '$') return '$';
    return name !== undefined && vars.has(name) ? (vars.get(name) ?? '') : m;
  });
}

const envNameRe = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

function decode(base64: string): string {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
  } catch {
    return '';
  }
}

function dataOf(object: KubeObject, secret: boolean): Record<string, string> {
  const data = (object['data'] ?? {}) as Record<string, string>;
  return secret ? Object.fromEntries(Object.entries(data).map(([k, v]) => [k, decode(v)])) : data;
}

interface ServicePort {
  name?: string;
  port?: number;
  protocol?: string;
}

/** The Docker-links-style variables of a Service (`NGINX_SERVICE_HOST`, `NGINX_PORT_80_TCP`, …). */
export function serviceVariables(service: KubeObject): [string, string][] {
  const spec = (service['spec'] ?? {}) as { clusterIP?: string; ports?: ServicePort[]; type?: string };
  const ip = spec.clusterIP ?? '';
  if (ip === '' || ip === 'None' || spec.type === 'ExternalName') return [];
  const prefix = (service.metadata?.name ?? '').toUpperCase().replace(/-/g, '_');
  const ports = spec.ports ?? [];
  const out: [string, string][] = [[`${prefix}_SERVICE_HOST`, ip]];
  const first = ports[0];
  if (first !== undefined) out.push([`${prefix}_SERVICE_PORT`, String(first.port ?? '')]);
  for (const p of ports)
    if ((p.name ?? '') !== '')
      out.push([
        `${prefix}_SERVICE_PORT_${(p.name ?? '').toUpperCase().replace(/-/g, '_')}`,
        String(p.port ?? ''),
      ]);
  if (first !== undefined)
    out.push([`${prefix}_PORT`, `${(first.protocol ?? 'TCP').toLowerCase()}://${ip}:${first.port ?? ''}`]);
  for (const p of ports) {
    const proto = (p.protocol ?? 'TCP').toLowerCase();
    const base = `${prefix}_PORT_${p.port ?? ''}_${proto.toUpperCase()}`;
    out.push(
      [base, `${proto}://${ip}:${p.port ?? ''}`],
      [`${base}_PROTO`, proto],
      [`${base}_PORT`, String(p.port ?? '')],
      [`${base}_ADDR`, ip],
    );
  }
  return out;
}

export interface ProcessSetup {
  env: [string, string][];
  argv: string[];
  files: { path: string; content: string; readOnly: boolean }[];
  dirs: { path: string; readOnly: boolean }[];
  workingDir?: string;
}

export interface SetupInputs {
  pod: Pod;
  container: Container;
  image: ImageSpec;
  hostname: string;
  volumes: Map<string, VolumeContent>;
  source: ObjectSource;
  allocatable: Record<string, string>;
  /** The Services whose variables the container gets: the pod's namespace's, and the master `kubernetes` one. */
  services: KubeObject[];
}

function join(dir: string, file: string): string {
  return `${dir.replace(/\/+$/, '')}/${file.replace(/^\/+/, '')}`;
}

export async function processSetup(i: SetupInputs): Promise<ProcessSetup> {
  const { pod, container, image } = i;
  const namespace = pod.metadata?.namespace ?? '';
  const vars = new Map<string, string>();
  const ordered: string[] = [];
  const set = (k: string, v: string) => {
    if (!vars.has(k)) ordered.push(k);
    vars.set(k, v);
  };
  // The Services first, so the pod's own variables of the same name win.
  const serviceVars = i.services.flatMap(serviceVariables);
  const fromServices = new Map(serviceVars);
  const lookup = async (
    kind: 'configmaps' | 'secrets',
    name: string,
    optional: boolean | undefined,
  ): Promise<KubeObject | undefined> => {
    const object = await i.source.get(kind, namespace, name);
    if (object === undefined && optional !== true)
      throw new ConfigError(`${kind === 'configmaps' ? 'configmap' : 'secret'} "${name}" not found`);
    return object;
  };
  for (const from of container.envFrom ?? []) {
    const ref = from.configMapRef ?? from.secretRef;
    const secret = from.secretRef !== undefined;
    if (ref === undefined) continue;
    const object = await lookup(secret ? 'secrets' : 'configmaps', ref.name ?? '', ref.optional);
    if (object === undefined) continue;
    for (const [k, v] of Object.entries(dataOf(object, secret))) {
      const name = `${from.prefix ?? ''}${k}`;
      if (envNameRe.test(name)) set(name, v);
    }
  }
  const expansionScope = () => new Map([...fromServices, ...vars]);
  for (const e of container.env ?? []) {
    if (e.valueFrom === undefined) {
      set(e.name, expandReferences(e.value ?? '', expansionScope()));
      continue;
    }
    const f = e.valueFrom;
    if (f.fieldRef !== undefined) set(e.name, podFieldValue(pod, f.fieldRef.fieldPath ?? '') ?? '');
    else if (f.resourceFieldRef !== undefined) {
      const target = f.resourceFieldRef.containerName
        ? pod.spec?.containers.find((c) => c.name === f.resourceFieldRef?.containerName)
        : container;
      set(
        e.name,
        resourceFieldValue(
          target,
          f.resourceFieldRef.resource ?? '',
          f.resourceFieldRef.divisor,
          i.allocatable,
        ) ?? '',
      );
    } else if (f.configMapKeyRef !== undefined || f.secretKeyRef !== undefined) {
      const ref = f.configMapKeyRef ?? f.secretKeyRef ?? {};
      const secret = f.secretKeyRef !== undefined;
      const object = await lookup(secret ? 'secrets' : 'configmaps', ref.name ?? '', ref.optional);
      if (object === undefined) continue;
      const value = dataOf(object, secret)[ref.key ?? ''];
      if (value === undefined) {
        if (ref.optional === true) continue;
        throw new ConfigError(
          `couldn't find key ${ref.key ?? ''} in ${secret ? 'Secret' : 'ConfigMap'} ${namespace}/${ref.name ?? ''}`,
        );
      }
      set(e.name, value);
    }
  }
  const imageEnv = new Map(image.env);
  const env: [string, string][] = [];
  const push = (k: string, v: string) => env.push([k, v]);
  push(
    'PATH',
    vars.get('PATH') ??
      imageEnv.get('PATH') ??
      '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  );
  push('HOSTNAME', i.hostname);
  for (const k of ordered) if (k !== 'PATH') push(k, vars.get(k) ?? '');
  for (const [k, v] of serviceVars) if (!vars.has(k)) push(k, v);
  for (const [k, v] of imageEnv) if (k !== 'PATH' && !vars.has(k)) push(k, v);
  if (!vars.has('HOME')) push('HOME', '/root');

  const scope = new Map(env);
  const expand = (list: string[]) => list.map((a) => expandReferences(a, scope));
  const argv =
    container.command !== undefined && container.command.length > 0
      ? [...expand(container.command), ...expand(container.args ?? [])]
      : [
          ...image.entrypoint,
          ...(container.args !== undefined && container.args.length > 0 ? expand(container.args) : image.cmd),
        ];

  const files: ProcessSetup['files'] = [];
  const dirs: ProcessSetup['dirs'] = [];
  for (const m of container.volumeMounts ?? []) {
    const volume = i.volumes.get(m.name);
    if (volume === undefined) continue;
    const readOnly = volume.readOnly || m.readOnly === true;
    if (m.subPath !== undefined && m.subPath !== '') {
      const content = volume.files.get(m.subPath);
      if (content !== undefined) files.push({ path: m.mountPath, content, readOnly });
      else dirs.push({ path: m.mountPath, readOnly });
      continue;
    }
    dirs.push({ path: m.mountPath, readOnly });
    for (const [path, content] of volume.files)
      files.push({ path: join(m.mountPath, path), content, readOnly });
  }
  return {
    env,
    argv,
    files,
    dirs,
    ...(container.workingDir !== undefined
      ? { workingDir: container.workingDir }
      : image.workingDir !== undefined
        ? { workingDir: image.workingDir }
        : {}),
  };
}

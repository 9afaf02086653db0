/**
 * kubectl's Pod describer and the pieces of it other describers reuse
 * (pod templates in Deployments and ReplicaSets): containers with their
 * image, ports, command, state, resources, probes, environment and
 * mounts; conditions; volumes by type; QoS class; node selectors and
 * tolerations; events.
 */

import type { KubeObject } from '../../api/meta';
import { ageSince } from '../printers/age';
import type { DescribeContext } from './describers';
import {
  describeEvents,
  PrefixWriter,
  printAnnotationsMultiline,
  printLabelsMultiline,
  rfc1123z,
  type EventLike,
} from './writer';

type Obj = KubeObject & Record<string, unknown>;
type Rec = Record<string, unknown>;

interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  ports?: { containerPort: number; hostPort?: number; protocol?: string }[];
  env?: { name: string; value?: string; valueFrom?: Rec }[];
  envFrom?: {
    configMapRef?: { name: string; optional?: boolean };
    secretRef?: { name: string; optional?: boolean };
    prefix?: string;
  }[];
  resources?: { limits?: Record<string, string>; requests?: Record<string, string> };
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean; subPath?: string }[];
  livenessProbe?: Rec;
  readinessProbe?: Rec;
  startupProbe?: Rec;
}

interface ContainerStatus {
  name: string;
  containerID?: string;
  imageID?: string;
  ready?: boolean;
  restartCount?: number;
  state?: Rec;
  lastState?: Rec;
}

function describeProbe(probe: Rec): string {
  const n = (k: string, d: number) => (typeof probe[k] === 'number' ? (probe[k] as number) : d);
  const attrs = `delay=${n('initialDelaySeconds', 0)}s timeout=${n('timeoutSeconds', 1)}s period=${n('periodSeconds', 10)}s #success=${n('successThreshold', 1)} #failure=${n('failureThreshold', 3)}`;
  if (probe['exec'] !== undefined)
    return `exec [${(((probe['exec'] as Rec)['command'] ?? []) as string[]).join(' ')}] ${attrs}`;
  if (probe['httpGet'] !== undefined) {
    const h = probe['httpGet'] as Rec;
    const scheme = String(h['scheme'] ?? 'HTTP').toLowerCase();
    return `http-get ${scheme}://${String(h['host'] ?? '')}:${String(h['port'] ?? '')}${String(h['path'] ?? '')} ${attrs}`;
  }
  if (probe['tcpSocket'] !== undefined) {
    const t = probe['tcpSocket'] as Rec;
    return `tcp-socket ${String(t['host'] ?? '')}:${String(t['port'] ?? '')} ${attrs}`;
  }
  if (probe['grpc'] !== undefined)
    return `grpc <pod>:${String((probe['grpc'] as Rec)['port'])} ${String((probe['grpc'] as Rec)['service'] ?? '')} ${attrs}`;
  return `unknown ${attrs}`;
}

function describeState(w: PrefixWriter, title: string, state: Rec | undefined): void {
  const running = state?.['running'] as Rec | undefined;
  const waiting = state?.['waiting'] as Rec | undefined;
  const terminated = state?.['terminated'] as Rec | undefined;
  if (running !== undefined) {
    w.write(2, `${title}:\tRunning\n`);
    w.write(3, `Started:\t${rfc1123z(running['startedAt'] as string)}\n`);
  } else if (waiting !== undefined) {
    w.write(2, `${title}:\tWaiting\n`);
    if (waiting['reason']) w.write(3, `Reason:\t${String(waiting['reason'])}\n`);
  } else if (terminated !== undefined) {
    w.write(2, `${title}:\tTerminated\n`);
    if (terminated['reason']) w.write(3, `Reason:\t${String(terminated['reason'])}\n`);
    if (terminated['message']) w.write(3, `Message:\t${String(terminated['message'])}\n`);
    w.write(3, `Exit Code:\t${String(terminated['exitCode'] ?? 0)}\n`);
    if ((terminated['signal'] as number) > 0) w.write(3, `Signal:\t${String(terminated['signal'])}\n`);
    w.write(3, `Started:\t${rfc1123z(terminated['startedAt'] as string)}\n`);
    w.write(3, `Finished:\t${rfc1123z(terminated['finishedAt'] as string)}\n`);
  } else w.write(2, `${title}:\tWaiting\n`);
}

export function describeContainers(
  w: PrefixWriter,
  label: string,
  containers: Container[],
  statuses: ContainerStatus[] | undefined,
  space: string,
): void {
  w.write(0, `${space}${label}:${containers.length === 0 ? ' <none>' : ''}\n`);
  for (const c of containers) {
    const status = statuses?.find((s) => s.name === c.name);
    w.write(1, `${space.length > 0 ? ' ' : ''}${c.name}:\n`);
    if (status !== undefined) w.write(2, `Container ID:\t${status.containerID ?? ''}\n`);
    w.write(2, `Image:\t${c.image ?? ''}\n`);
    if (status !== undefined) w.write(2, `Image ID:\t${status.imageID ?? ''}\n`);
    const ports = (c.ports ?? []).map((p) => `${p.containerPort}/${p.protocol ?? 'TCP'}`).join(', ');
    const hostPorts = (c.ports ?? []).map((p) => `${p.hostPort ?? 0}/${p.protocol ?? 'TCP'}`).join(', ');
    if (ports.includes(',')) w.write(2, `Ports:\t${ports}\n`);
    else w.write(2, `Port:\t${ports === '' ? '<none>' : ports}\n`);
    if (hostPorts.includes(',')) w.write(2, `Host Ports:\t${hostPorts}\n`);
    else w.write(2, `Host Port:\t${hostPorts === '' ? '<none>' : hostPorts}\n`);
    if ((c.command ?? []).length > 0) {
      w.write(2, 'Command:\n');
      for (const cmd of c.command ?? []) for (const s of cmd.split('\n')) w.write(3, `${s}\n`);
    }
    if ((c.args ?? []).length > 0) {
      w.write(2, 'Args:\n');
      for (const a of c.args ?? []) for (const s of a.split('\n')) w.write(3, `${s}\n`);
    }
    if (status !== undefined) {
      describeState(w, 'State', status.state);
      if (status.lastState?.['terminated'] !== undefined) describeState(w, 'Last State', status.lastState);
      w.write(2, `Ready:\t${status.ready === true ? 'True' : 'False'}\n`);
      w.write(2, `Restart Count:\t${status.restartCount ?? 0}\n`);
    }
    const limits = c.resources?.limits ?? {};
    const requests = c.resources?.requests ?? {};
    if (Object.keys(limits).length > 0) w.write(2, 'Limits:\n');
    for (const k of Object.keys(limits).sort()) w.write(3, `${k}:\t${limits[k]}\n`);
    if (Object.keys(requests).length > 0) w.write(2, 'Requests:\n');
    for (const k of Object.keys(requests).sort()) w.write(3, `${k}:\t${requests[k]}\n`);
    if (c.livenessProbe) w.write(2, `Liveness:\t${describeProbe(c.livenessProbe)}\n`);
    if (c.readinessProbe) w.write(2, `Readiness:\t${describeProbe(c.readinessProbe)}\n`);
    if (c.startupProbe) w.write(2, `Startup:\t${describeProbe(c.startupProbe)}\n`);
    if ((c.envFrom ?? []).length > 0) {
      w.write(2, 'Environment Variables from:\n');
      for (const e of c.envFrom ?? []) {
        const ref = e.configMapRef ?? e.secretRef;
        const kind = e.configMapRef !== undefined ? 'ConfigMap' : 'Secret';
        const prefix = e.prefix ? ` with prefix '${e.prefix}'` : '';
        w.write(3, `${ref?.name ?? ''}\t${kind}${prefix}\tOptional: ${ref?.optional === true}\n`);
      }
    }
    w.write(2, `Environment:${(c.env ?? []).length === 0 ? '\t<none>' : ''}\n`);
    for (const e of c.env ?? []) {
      if (e.valueFrom === undefined) {
        (e.value ?? '')
          .split('\n')
          .forEach((s, i) => w.write(3, i === 0 ? `${e.name}:\t${s}\n` : `\t${s}\n`));
        continue;
      }
      const v = e.valueFrom;
      if (v['fieldRef'] !== undefined) {
        const f = v['fieldRef'] as Rec;
        w.write(3, `${e.name}:\t (${String(f['apiVersion'] ?? 'v1')}:${String(f['fieldPath'])})\n`);
      } else if (v['resourceFieldRef'] !== undefined) {
        const f = v['resourceFieldRef'] as Rec;
        w.write(3, `${e.name}:\t${String(f['resource'])}\n`);
      } else if (v['secretKeyRef'] !== undefined) {
        const f = v['secretKeyRef'] as Rec;
        w.write(
          3,
          `${e.name}:\t<set to the key '${String(f['key'])}' in secret '${String(f['name'])}'>\tOptional: ${f['optional'] === true}\n`,
        );
      } else if (v['configMapKeyRef'] !== undefined) {
        const f = v['configMapKeyRef'] as Rec;
        w.write(
          3,
          `${e.name}:\t<set to the key '${String(f['key'])}' of config map '${String(f['name'])}'>\tOptional: ${f['optional'] === true}\n`,
        );
      }
    }
    const mounts = [...(c.volumeMounts ?? [])].sort((a, b) => (a.mountPath < b.mountPath ? -1 : 1));
    w.write(2, `Mounts:${mounts.length === 0 ? '\t<none>' : ''}\n`);
    for (const m of mounts) {
      const flags = [m.readOnly ? 'ro' : 'rw'];
      if (m.subPath) flags.push(`path=${JSON.stringify(m.subPath)}`);
      w.write(3, `${m.mountPath} from ${m.name} (${flags.join(',')})\n`);
    }
  }
}

export function describeVolumes(w: PrefixWriter, volumes: Rec[], space: string): void {
  if (volumes.length === 0) {
    w.write(0, `${space}Volumes:\t<none>\n`);
    return;
  }
  w.write(0, `${space}Volumes:\n`);
  for (const v of volumes) {
    w.write(1, `${space.length > 0 ? ' ' : ''}${String(v['name'])}:\n`);
    const source = (k: string) => v[k] as Rec | undefined;
    if (source('hostPath')) {
      const h = source('hostPath') as Rec;
      w.write(
        2,
        `Type:\tHostPath (bare host directory volume)\n    Path:\t${String(h['path'])}\n    HostPathType:\t${String(h['type'] ?? '<none>')}\n`,
      );
    } else if (source('emptyDir')) {
      const e = source('emptyDir') as Rec;
      w.write(
        2,
        `Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t${String(e['medium'] ?? '')}\n    SizeLimit:\t${String(e['sizeLimit'] ?? '<unset>')}\n`,
      );
    } else if (source('secret')) {
      const s = source('secret') as Rec;
      w.write(
        2,
        `Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t${String(s['secretName'] ?? '')}\n    Optional:\t${s['optional'] === true}\n`,
      );
    } else if (source('configMap')) {
      const c = source('configMap') as Rec;
      w.write(
        2,
        `Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t${String(c['name'] ?? '')}\n    Optional:\t${c['optional'] === true}\n`,
      );
    } else if (source('projected')) {
      w.write(2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
      for (const s of ((source('projected') as Rec)['sources'] ?? []) as Rec[]) {
        if (s['secret'])
          w.write(
            2,
            `SecretName:\t${String((s['secret'] as Rec)['name'])}\n    SecretOptionalName:\t${(s['secret'] as Rec)['optional'] === undefined ? '<nil>' : String((s['secret'] as Rec)['optional'])}\n`,
          );
        else if (s['downwardAPI']) w.write(2, 'DownwardAPI:\ttrue\n');
        else if (s['configMap'])
          w.write(
            2,
            `ConfigMapName:\t${String((s['configMap'] as Rec)['name'])}\n    ConfigMapOptional:\t${(s['configMap'] as Rec)['optional'] === undefined ? '<nil>' : String((s['configMap'] as Rec)['optional'])}\n`,
          );
        else if (s['serviceAccountToken'])
          w.write(
            2,
            `TokenExpirationSeconds:\t${String((s['serviceAccountToken'] as Rec)['expirationSeconds'] ?? 3600)}\n`,
          );
      }
    } else if (source('persistentVolumeClaim')) {
      const p = source('persistentVolumeClaim') as Rec;
      w.write(
        2,
        `Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t${String(p['claimName'])}\n    ReadOnly:\t${p['readOnly'] === true}\n`,
      );
    } else w.write(2, `<unknown>\n`);
  }
}

/** DescribePodTemplate: the template of a Deployment, ReplicaSet, Job, … */
export function describePodTemplate(template: Rec | undefined, w: PrefixWriter): void {
  w.write(0, 'Pod Template:\n');
  if (template === undefined) {
    w.write(1, '<unset>');
    return;
  }
  const meta = (template['metadata'] ?? {}) as {
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  const spec = (template['spec'] ?? {}) as Rec;
  printLabelsMultiline(w, '  Labels', meta.labels);
  if (Object.keys(meta.annotations ?? {}).length > 0)
    printAnnotationsMultiline(w, '  Annotations', meta.annotations);
  if (spec['serviceAccountName']) w.write(1, `Service Account:\t${String(spec['serviceAccountName'])}\n`);
  if (((spec['initContainers'] ?? []) as Container[]).length > 0)
    describeContainers(w, 'Init Containers', spec['initContainers'] as Container[], undefined, '  ');
  describeContainers(w, 'Containers', (spec['containers'] ?? []) as Container[], undefined, '  ');
  describeVolumes(w, (spec['volumes'] ?? []) as Rec[], '  ');
  if (spec['priorityClassName']) w.write(1, `Priority Class Name:\t${String(spec['priorityClassName'])}\n`);
}

function qosClass(spec: Rec): string {
  const containers = [
    ...((spec['containers'] ?? []) as Container[]),
    ...((spec['initContainers'] ?? []) as Container[]),
  ];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const limits = c.resources?.limits ?? {};
    const requests = c.resources?.requests ?? {};
    if (Object.keys(limits).length > 0 || Object.keys(requests).length > 0) any = true;
    for (const r of ['cpu', 'memory']) {
      if (limits[r] === undefined) guaranteed = false;
      if (requests[r] !== undefined && requests[r] !== limits[r]) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

export async function describePod(
  ctx: DescribeContext,
  pod: Obj,
  searchEvents: (ctx: DescribeContext, object: Obj) => Promise<EventLike[] | undefined>,
): Promise<string> {
  const events = await searchEvents(ctx, pod);
  const spec = (pod['spec'] ?? {}) as Rec;
  const status = (pod['status'] ?? {}) as Rec;
  const w = new PrefixWriter();
  const m = pod.metadata ?? {};
  w.write(0, `Name:\t${m.name ?? ''}\n`);
  w.write(0, `Namespace:\t${m.namespace ?? ''}\n`);
  if (spec['priority'] !== undefined) w.write(0, `Priority:\t${String(spec['priority'])}\n`);
  if (spec['priorityClassName']) w.write(0, `Priority Class Name:\t${String(spec['priorityClassName'])}\n`);
  if (spec['runtimeClassName']) w.write(0, `Runtime Class Name:\t${String(spec['runtimeClassName'])}\n`);
  if (spec['serviceAccountName']) w.write(0, `Service Account:\t${String(spec['serviceAccountName'])}\n`);
  if (!spec['nodeName']) w.write(0, 'Node:\t<none>\n');
  else w.write(0, `Node:\t${String(spec['nodeName'])}/${String(status['hostIP'] ?? '')}\n`);
  if (status['startTime']) w.write(0, `Start Time:\t${rfc1123z(status['startTime'] as string)}\n`);
  printLabelsMultiline(w, 'Labels', m.labels);
  printAnnotationsMultiline(w, 'Annotations', m.annotations);
  if (m.deletionTimestamp) {
    w.write(0, `Status:\tTerminating (lasts ${ageSince(m.deletionTimestamp, ctx.now)})\n`);
    w.write(0, `Termination Grace Period:\t${m.deletionGracePeriodSeconds ?? 0}s\n`);
  } else w.write(0, `Status:\t${String(status['phase'] ?? '')}\n`);
  if (status['reason']) w.write(0, `Reason:\t${String(status['reason'])}\n`);
  if (status['message']) w.write(0, `Message:\t${String(status['message'])}\n`);
  w.write(0, `IP:\t${String(status['podIP'] ?? '')}\n`);
  const ips = (status['podIPs'] ?? []) as { ip: string }[];
  if (ips.length === 0) w.write(0, 'IPs:\t<none>\n');
  else {
    w.write(0, 'IPs:\n');
    for (const ip of ips) w.write(1, `IP:\t${ip.ip}\n`);
  }
  const owner = (m.ownerReferences ?? []).find((o) => o.controller);
  if (owner !== undefined) w.write(0, `Controlled By:\t${owner.kind}/${owner.name}\n`);
  if (status['nominatedNodeName']) w.write(0, `NominatedNodeName:\t${String(status['nominatedNodeName'])}\n`);
  if (((spec['initContainers'] ?? []) as Container[]).length > 0)
    describeContainers(
      w,
      'Init Containers',
      spec['initContainers'] as Container[],
      status['initContainerStatuses'] as ContainerStatus[],
      '',
    );
  describeContainers(
    w,
    'Containers',
    (spec['containers'] ?? []) as Container[],
    status['containerStatuses'] as ContainerStatus[],
    '',
  );
  const conditions = (status['conditions'] ?? []) as { type: string; status: string }[];
  if (conditions.length > 0) {
    w.write(0, 'Conditions:\n  Type\tStatus\n');
    for (const c of conditions) w.write(1, `${c.type} \t${c.status} \n`);
  }
  describeVolumes(w, (spec['volumes'] ?? []) as Rec[], '');
  w.write(0, `QoS Class:\t${String(status['qosClass'] ?? qosClass(spec))}\n`);
  printLabelsMultiline(w, 'Node-Selectors', spec['nodeSelector'] as Record<string, string> | undefined);
  const tolerations = [
    ...((spec['tolerations'] ?? []) as {
      key?: string;
      value?: string;
      effect?: string;
      operator?: string;
      tolerationSeconds?: number;
    }[]),
  ].sort((a, b) => ((a.key ?? '') < (b.key ?? '') ? -1 : (a.key ?? '') > (b.key ?? '') ? 1 : 0));
  w.write(0, 'Tolerations:\t');
  if (tolerations.length === 0) w.line('<none>');
  tolerations.forEach((t, i) => {
    if (i !== 0) w.write(0, '\t');
    let text = t.key ?? '';
    if (t.value) text += `=${t.value}`;
    if (t.effect) text += `:${t.effect}`;
    if (t.operator === 'Exists' && !t.value) text += t.key || t.effect ? ' op=Exists' : 'op=Exists';
    if (t.tolerationSeconds !== undefined) text += ` for ${t.tolerationSeconds}s`;
    w.write(0, `${text}\n`);
  });
  describeEvents(events, w, ctx.now);
  return w.result();
}

/**
 * A fixed, realistic Pod and its protobuf encode/decode, for the benchmark
 * script to time (`npm run bench`): the same work the server does per
 * object when a client negotiated protobuf. The descriptor is loaded by
 * the first call, so time after one warm-up call.
 */

import type { KubeObject } from '../../api/meta';
import { namingProfile, type ProfileName } from '../../machinery/naming';
import { protobufCodec } from './codec';

export const benchPod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-7d9c6b8f5-x2kqp',
    generateName: 'web-7d9c6b8f5-',
    namespace: 'default',
    uid: '4f1f7a52-8a3e-4c4e-9d59-0b5d2b1c9f10',
    resourceVersion: '12345',
    creationTimestamp: '2024-06-01T12:00:00Z',
    labels: { app: 'web', 'pod-template-hash': '7d9c6b8f5' },
    ownerReferences: [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'web-7d9c6b8f5',
        uid: '9a0d3c1e-1f2b-4a5c-8d7e-6f5a4b3c2d1e',
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  },
  spec: {
    containers: [
      {
        name: 'nginx',
        image: 'nginx:1.25',
        ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
        resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
        livenessProbe: {
          httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' },
          periodSeconds: 10,
          timeoutSeconds: 1,
          successThreshold: 1,
          failureThreshold: 3,
        },
        volumeMounts: [{ name: 'config', mountPath: '/etc/nginx/conf.d', readOnly: true }],
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
      },
    ],
    volumes: [{ name: 'config', configMap: { name: 'web-config', defaultMode: 420 } }],
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    serviceAccountName: 'default',
    nodeName: 'node-a',
    schedulerName: 'default-scheduler',
    tolerations: [
      { key: 'node.example/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ],
  },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-06-01T12:00:05Z' }],
    hostIP: '10.0.0.11',
    podIP: '10.244.1.7',
    podIPs: [{ ip: '10.244.1.7' }],
    startTime: '2024-06-01T12:00:00Z',
    containerStatuses: [
      {
        name: 'nginx',
        ready: true,
        restartCount: 0,
        image: 'nginx:1.25',
        imageID: 'docker.io/library/nginx@sha256:0123',
        started: true,
        state: { running: { startedAt: '2024-06-01T12:00:03Z' } },
      },
    ],
    qosClass: 'Burstable',
  },
};

/** Encode and decode of `benchPod` under a profile. */
export function podProtobufBench(profile: ProfileName = 'kubernetes'): {
  encode(): Uint8Array;
  decode(bytes: Uint8Array): KubeObject;
} {
  const codec = protobufCodec(namingProfile(profile));
  return {
    encode: () => codec.encode(benchPod) ?? new Uint8Array(),
    decode: (bytes) => codec.decode(bytes),
  };
}

/**
 * The controllers lesson against the in-process server's own Deployment
 * and ReplicaSet controllers (no nodes: Pods stay Pending, and the checks
 * hold anyway): completed by "Show me", then the learner's way typed as
 * the lesson's Terminal links type it — the app's kubectl — with another
 * container name (kubectl names it after the image) and another patch type
 * for the rollback (strategic merge by that name). Once more in the
 * `kubernetes` profile, where the revision annotation is
 * `deployment.kubernetes.io/revision`; and once with the test kubelet
 * running the Pods (as simulated nodes will), where rollouts complete and
 * deleted Pods terminate gracefully, and the same checks hold.
 */

import { afterAll, beforeAll, it } from 'vitest';
import { controllers } from '../../src/lessons/builtin/controllers';
import { startKwok } from '../support/kwok';
import { completeLesson, startLessonServer, type LearnerSteps, type LessonServer } from '../support/lessons';

const ns = 'learn-controllers';

let server: LessonServer;
beforeAll(async () => {
  server = await startLessonServer();
});
afterAll(async () => {
  await server.close();
});

const kubectlWay: LearnerSteps = {
  create: (s) =>
    s.kubectl(`kubectl create deployment web --image=nginx:1.25 --replicas=2 -n ${ns}`).then(() => undefined),
  scale: (s) => s.kubectl(`kubectl scale deployment web --replicas=3 -n ${ns}`).then(() => undefined),
  rollout: (s) =>
    s
      .kubectl(
        `kubectl patch deployment web -n ${ns} --type=json -p '[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.26"}]'`,
      )
      .then(() => undefined),
  rollback: (s) =>
    s
      .kubectl(
        `kubectl patch deployment web -n ${ns} -p '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.25"}]}}}}'`,
      )
      .then(() => undefined),
  cascade: (s) => s.kubectl(`kubectl delete deployment web -n ${ns}`).then(() => undefined),
};

it('controllers: Deployment → ReplicaSet → Pods, scale, rollout, rollback, cascade', async () => {
  await completeLesson(server, controllers, kubectlWay);
});

it('controllers in the kubernetes profile: the revision annotation under its upstream name', async () => {
  const upstream = await startLessonServer('kubernetes');
  try {
    await completeLesson(upstream, controllers, kubectlWay);
  } finally {
    await upstream.close();
  }
});

it('controllers with nodes (the test kubelet): Pods run, rollouts complete, and the checks hold as well', async () => {
  const withNodes = await startLessonServer();
  const kwok = await startKwok('http://sandbox.test', {
    client: await withNodes.host.clientFor('admin', false),
  });
  try {
    const admin = await withNodes.host.clientFor('admin', false);
    const running = async (image: string, count: number) => {
      // The test kubelet really runs them: the rollout can finish (polled, as the workload tests wait).
      for (let i = 0; i < 400; i++) {
        const list = await admin.list({ group: '', version: 'v1', resource: 'pods', namespace: ns });
        const up = list.items.filter(
          (p) =>
            (p as { status?: { phase?: string } }).status?.phase === 'Running' &&
            (p as { spec?: { containers?: { image?: string }[] } }).spec?.containers?.[0]?.image === image,
        );
        if (up.length === count) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`timed out waiting for ${count} running pods of ${image}`);
    };
    await completeLesson(withNodes, controllers, {
      ...kubectlWay,
      rollout: async (s) => {
        await kubectlWay['rollout']!(s);
        await running('nginx:1.26', 3);
      },
    });
  } finally {
    kwok.stop();
    await withNodes.close();
  }
});

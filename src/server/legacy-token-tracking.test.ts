/** The legacy token tracker writes the last-used label at most once a day, only with its feature gate on. */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/meta';
import { PROFILES } from '../machinery/naming';
import { lastUsedLabel, legacyTokenTracker } from './legacy-token-tracking';

const secret = (labels: Record<string, string> = {}): KubeObject => ({
  kind: 'Secret',
  apiVersion: 'v1',
  metadata: { name: 's', namespace: 'ns', uid: 'u', labels },
});

describe('legacy token tracking', () => {
  it.each(['kubernetes', 'orch'] as const)('patches the label with the UTC date (%s)', async (name) => {
    const profile = PROFILES[name];
    const sent: { path: string; body: unknown }[] = [];
    let now = new Date('2026-03-01T23:30:00Z');
    let enabled = true;
    const track = legacyTokenTracker({
      profile,
      now: () => now,
      enabled: () => enabled,
      patch: async (namespace, n, body) => {
        sent.push({ path: `${namespace}/${n}`, body: JSON.parse(body) });
        return new Response('{}');
      },
    });
    const label = lastUsedLabel(profile);
    expect(label).toBe(`${profile.prefixed('legacy-token-last-used')}`);
    track(secret());
    track(secret()); // the informer has not seen the first patch yet: no second write the same day
    track(secret({ [label]: '2026-03-01' }));
    track(secret({ [label]: '2026-03-02' })); // another replica's clock a little ahead
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toEqual([
      {
        path: 'ns/s',
        body: {
          kind: 'Secret',
          apiVersion: 'v1',
          metadata: { name: 's', namespace: 'ns', uid: 'u', labels: { [label]: '2026-03-01' } },
        },
      },
    ]);
    now = new Date('2026-03-03T00:10:00Z');
    track(secret({ [label]: '2026-03-01' }));
    enabled = false;
    track(secret());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(
      sent.map((s) => (s.body as { metadata: { labels: Record<string, string> } }).metadata.labels[label]),
    ).toEqual(['2026-03-01', '2026-03-03']);
  });
});

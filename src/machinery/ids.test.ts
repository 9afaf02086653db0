// UIDs from the batched random pool are version-4 UUIDs in the form `crypto.randomUUID` makes, never repeated
// across pool refills.
import { describe, expect, it } from 'vitest';
import { newUid } from './ids';

describe('newUid', () => {
  it('makes distinct version-4 UUIDs across several refills of its pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 64 * 5 + 3; i++) {
      const uid = newUid();
      expect(uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      seen.add(uid);
    }
    expect(seen.size).toBe(64 * 5 + 3);
  });
});

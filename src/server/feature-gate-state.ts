/**
 * The server's feature gates while it runs: the explicit settings (the
 * host's `--feature-gates`, then what the workshop settings change) and
 * every gate's effective value derived from them. The effective record is
 * one object shared by reference with everything that reads a gate
 * (admission, stores, handlers), so it is updated in place.
 */

import { checkFeatureGates, resolveFeatureGates } from '../machinery/feature-gates';

export class FeatureGateState {
  readonly effective: Record<string, boolean>;
  private explicit: Record<string, boolean>;

  /** `flags` were checked by the host already (an unknown or locked one is refused before start). */
  constructor(private readonly flags: Readonly<Record<string, boolean>> = {}) {
    this.explicit = { ...flags };
    this.effective = resolveFeatureGates(this.explicit);
  }

  /** The gates set explicitly (what the settings save). */
  settings(): Record<string, boolean> {
    return { ...this.explicit };
  }

  /** Applies a change; throws FeatureGateError (nothing changes) for an unknown or locked gate. */
  set(patch: Readonly<Record<string, boolean>>): void {
    checkFeatureGates(Object.entries(patch));
    Object.assign(this.explicit, patch);
    this.recompute();
  }

  /** Saved workshop settings apply where the host's flags are silent; bad entries (an older list) are dropped. */
  applySaved(saved: Readonly<Record<string, boolean>>): void {
    for (const [name, value] of Object.entries(saved)) {
      if (this.flags[name] !== undefined) continue;
      try {
        checkFeatureGates([[name, value]]);
        this.explicit[name] = value;
      } catch {
        // A gate this server no longer knows, or one now locked: the saved value is ignored.
      }
    }
    this.recompute();
  }

  private recompute(): void {
    Object.assign(this.effective, resolveFeatureGates(this.explicit));
  }
}

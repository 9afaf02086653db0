/**
 * What the course engine needs from where it runs: the naming profile, API
 * clients acting as an identity (recorded in the learner's request log, or
 * not, for the engine's own reads), the request log, the Watch inspector,
 * where progress is kept, and a way to switch who the app acts as. The
 * browser UI (src/ui/learn) and the Node tests each provide one.
 */

import type { ApiClient } from '../client/index';
import type { NamingProfile } from '../machinery/naming';
import type { IdentityName } from './format';
import type { WatchInspector } from './inspector';
import type { RequestSource } from './journal';
import type { ProgressStore } from './progress';

export interface LessonHost {
  profile: NamingProfile;
  /**
   * A client sending as `identity` (a built-in identity's name, or `anonymous`). `recorded` clients go through
   * the learner's request log ("Show me" is the learner's doing); the engine's own reads and preparations do not.
   */
  clientFor(identity: IdentityName, recorded: boolean): Promise<ApiClient>;
  requests: RequestSource;
  inspector: WatchInspector;
  progress: ProgressStore;
  /** Makes the app act as `identity` from now on (the header's identity chip); hosts without one ignore it. */
  actAs?(identity: IdentityName): void;
}

/** The shape every in-server controller has, and what it is given. */

import type { ApiClient } from '../client/client';
import type { Clock } from '../machinery/clock';
import type { NamingProfile } from '../machinery/naming';

export interface ControllerContext {
  client: ApiClient;
  profile: NamingProfile;
  now(): Date;
  /** The server's clock, for timers that must fire when a learner moves it forward (schedules, back-offs, TTLs). */
  clock: Clock;
}

export interface Controller {
  readonly name: string;
  start(): void;
  stop(): void;
  /** Resolves when the controller has nothing queued (tests, shutdown). */
  idle(): Promise<void>;
}

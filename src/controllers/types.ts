/** The shape every in-server controller has, and what it is given. */

import type { ApiClient } from '../client/client';
import type { NamingProfile } from '../machinery/naming';

export interface ControllerContext {
  client: ApiClient;
  profile: NamingProfile;
  now(): Date;
}

export interface Controller {
  readonly name: string;
  start(): void;
  stop(): void;
  /** Resolves when the controller has nothing queued (tests, shutdown). */
  idle(): Promise<void>;
}

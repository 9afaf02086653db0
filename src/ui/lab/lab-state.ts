/**
 * The lab's state: the managers with their applied configurations and the
 * answer each last got, plus which scenario runs and how far its steps got.
 */

import type { StatusCause } from '../../api/meta';

export type ApplyResult =
  | { kind: 'ok'; status: number; resourceVersion: string; warnings: string[]; forced: boolean }
  | { kind: 'conflict'; causes: StatusCause[]; message: string }
  | { kind: 'error'; error: unknown };

export interface LabManager {
  id: number;
  name: string;
  yaml: string;
  result?: ApplyResult;
}

export interface StepOutcome {
  passed: boolean;
  text: string;
}

/**
 * What changes in a container's record as it enters a lifecycle state
 * (the part of a stage's effect that is bookkeeping, not an action): the
 * waiting reason the stage set (kept across the states of a retry, so a
 * crash-looping container shows CrashLoopBackOff until it runs again),
 * pull failures counted for the back-off, and the termination recorded
 * from the process's exit. Pure, so the golden stage tests use it as the
 * node agent does.
 */

import type { ContainerStateTerminated } from '../../api/pod';
import type { ExitInfo } from '../containers/container';
import { imageID, type ImageRef } from '../containers/images';
import type { ContainerRecord } from './records';

const rfc3339 = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/** The termination a container's status shows once its process ended (or never started). */
export function termination(
  c: ContainerRecord,
  exit: ExitInfo | undefined,
  now: number,
): ContainerStateTerminated {
  const containerID = c.containerID !== undefined ? { containerID: `containerd://${c.containerID}` } : {};
  if (c.startError !== undefined || exit === undefined)
    return {
      exitCode: 128,
      reason: 'StartError',
      message: c.startError ?? 'the container ended before it started',
      // A container that never started shows the zero time, as the runtime reports it.
      startedAt: rfc3339(0),
      finishedAt: rfc3339(now),
      ...containerID,
    };
  return {
    exitCode: exit.exitCode,
    ...(exit.signal !== undefined ? { signal: exit.signal } : {}),
    reason: exit.reason,
    ...(exit.message !== undefined ? { message: exit.message } : {}),
    startedAt: rfc3339(c.startedAt ?? exit.finishedAt),
    finishedAt: rfc3339(exit.finishedAt),
    ...containerID,
  };
}

const pullReasons = new Set(['ErrImagePull', 'ImagePullBackOff']);

/** The record's changes on entering `state`; true when the crash-loop back-off starts afresh (it ran ten minutes). */
export function enterState(
  c: ContainerRecord,
  state: string,
  waiting: { reason: string; message?: string } | undefined,
  now: number,
  exit: ExitInfo | undefined,
): boolean {
  c.state = state;
  if (waiting !== undefined) c.waiting = waiting;
  switch (state) {
    case 'running':
      delete c.waiting;
      return false;
    case 'pull-failed':
      c.pullFailures++;
      c.pullFailedAt = now;
      return false;
    case 'image-ready':
      c.pullFailures = 0;
      delete c.pullFailedAt;
      if (c.waiting !== undefined && pullReasons.has(c.waiting.reason)) delete c.waiting;
      return false;
    case 'exited':
      delete c.waiting;
      c.terminated = termination(c, exit, now);
      c.ready = false;
      return c.startedAt !== undefined && now - c.startedAt > 600_000;
    default:
      return false;
  }
}

/** The image was pulled: the status names it as the runtime resolved it. */
export function recordPulled(c: ContainerRecord, ref: ImageRef): void {
  c.ref = ref;
  c.imageID = imageID(ref);
}

/** The container was created with an id; `startError` when its program cannot be started. */
export function recordCreated(c: ContainerRecord, containerID: string, startError: string | undefined): void {
  c.containerID = containerID;
  if (startError !== undefined) c.startError = startError;
}

/** The container's process started now: ready once its readiness probe (if any) says so. */
export function recordStarted(c: ContainerRecord, now: number): void {
  c.startedAt = now;
  c.started = c.spec.startupProbe === undefined;
  c.ready = false;
}

/** A restart: the termination becomes the last state, the count goes up, the next instance starts afresh. */
export function recordRestart(c: ContainerRecord): void {
  if (c.terminated !== undefined) c.lastTerminated = c.terminated;
  delete c.terminated;
  delete c.containerID;
  delete c.startError;
  delete c.configError;
  delete c.pull;
  c.restartCount++;
}

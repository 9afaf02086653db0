/**
 * Every editor write goes through a preview first: the operation is sent
 * with `dryRun=All` (every stage runs — admission, defaulting, validation,
 * merge — except persisting), the stored object is read, and the two are
 * shown as a diff. Only "Confirm" sends the real request, which is then
 * checked against the preview (a write in between shows as a new diff).
 */

import { useState } from 'react';
import type { KubeObject } from '../../api/meta';
import { ApiError, type ApiClient } from '../../client/index';
import type { WritePlan } from './write-plan';

export interface Preview {
  plan: WritePlan;
  stored: KubeObject | undefined;
  dryRun: KubeObject | undefined;
  error: unknown;
  warnings: string[];
}

export interface Outcome {
  /** Unset when the text could not even be turned into a request. */
  plan: WritePlan | undefined;
  object: KubeObject | undefined;
  status: number | undefined;
  error: unknown;
  warnings: string[];
}

export function useWriteFlow(client: ApiClient) {
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<Preview | undefined>(undefined);
  const [outcome, setOutcome] = useState<Outcome | undefined>(undefined);

  async function readStored(plan: WritePlan): Promise<KubeObject | undefined> {
    if (plan.objectPath === '') return undefined;
    try {
      return (await client.send<KubeObject>('GET', plan.objectPath)).body;
    } catch (error) {
      if (error instanceof ApiError && error.code === 404) return undefined;
      throw error;
    }
  }

  async function runPreview(plan: WritePlan): Promise<void> {
    setBusy(true);
    setOutcome(undefined);
    try {
      const stored = await readStored(plan);
      try {
        const answer = await client.send<KubeObject>(plan.method, plan.path, {
          body: plan.body,
          contentType: plan.contentType,
          query: { ...plan.query, dryRun: 'All' },
        });
        setPreview({ plan, stored, dryRun: answer.body, error: undefined, warnings: answer.warnings });
      } catch (error) {
        setPreview({
          plan,
          stored,
          dryRun: undefined,
          error,
          warnings: error instanceof ApiError ? error.warnings : [],
        });
      }
    } catch (error) {
      setPreview({ plan, stored: undefined, dryRun: undefined, error, warnings: [] });
    } finally {
      setBusy(false);
    }
  }

  async function confirm(): Promise<void> {
    if (preview === undefined) return;
    const plan = preview.plan;
    setBusy(true);
    try {
      const answer = await client.send<KubeObject>(plan.method, plan.path, {
        body: plan.body,
        contentType: plan.contentType,
        query: plan.query,
      });
      setOutcome({
        plan,
        object: answer.body,
        status: answer.status,
        error: undefined,
        warnings: answer.warnings,
      });
      setPreview(undefined);
    } catch (error) {
      setOutcome({
        plan,
        object: undefined,
        status: error instanceof ApiError ? error.code : undefined,
        error,
        warnings: error instanceof ApiError ? error.warnings : [],
      });
    } finally {
      setBusy(false);
    }
  }

  return {
    busy,
    preview,
    outcome,
    runPreview,
    confirm,
    cancel: () => setPreview(undefined),
    /** Shows a failure that happened before any request (the text does not parse, the kind is unknown). */
    fail: (error: unknown) => {
      setPreview(undefined);
      setOutcome({ plan: undefined, object: undefined, status: undefined, error, warnings: [] });
    },
  };
}

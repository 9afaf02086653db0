/**
 * Every editor write goes through a preview first: the operation is sent
 * with `dryRun=All` (every stage runs — admission, defaulting, validation,
 * merge — except persisting), the stored object is read, and the two are
 * shown as a diff. Only "Confirm" sends the real request, which is then
 * checked against the preview (a write in between shows as a new diff).
 * Each preview remembers the editor text it was made from, so the view can
 * tell when the text has moved on and the preview no longer describes it.
 */

import { useState } from 'react';
import type { KubeObject } from '../../api/meta';
import { ApiError, type ApiClient } from '../../client/index';
import type { WritePlan } from './write-plan';

export interface Preview {
  plan: WritePlan;
  /** The editor text the plan was made from. */
  text: string;
  stored: KubeObject | undefined;
  dryRun: KubeObject | undefined;
  error: unknown;
  warnings: string[];
}

export interface Outcome {
  /** Unset when the text could not even be turned into a request. */
  plan: WritePlan | undefined;
  /** The editor text the request was made from. */
  text?: string;
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

  async function runPreview(plan: WritePlan, text: string): Promise<void> {
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
        setPreview({ plan, text, stored, dryRun: answer.body, error: undefined, warnings: answer.warnings });
      } catch (error) {
        setPreview({
          plan,
          text,
          stored,
          dryRun: undefined,
          error,
          warnings: error instanceof ApiError ? error.warnings : [],
        });
      }
    } catch (error) {
      setPreview({ plan, text, stored: undefined, dryRun: undefined, error, warnings: [] });
    } finally {
      setBusy(false);
    }
  }

  /** Sends the previewed request; the answer is also returned, so the editor can hold what the server stored. */
  async function confirm(): Promise<Outcome | undefined> {
    if (preview === undefined) return undefined;
    const plan = preview.plan;
    setBusy(true);
    let result: Outcome;
    try {
      const answer = await client.send<KubeObject>(plan.method, plan.path, {
        body: plan.body,
        contentType: plan.contentType,
        query: plan.query,
      });
      result = {
        plan,
        text: preview.text,
        object: answer.body,
        status: answer.status,
        error: undefined,
        warnings: answer.warnings,
      };
      setPreview(undefined);
    } catch (error) {
      result = {
        plan,
        text: preview.text,
        object: undefined,
        status: error instanceof ApiError ? error.code : undefined,
        error,
        warnings: error instanceof ApiError ? error.warnings : [],
      };
    } finally {
      setBusy(false);
    }
    setOutcome(result);
    return result;
  }

  return {
    busy,
    preview,
    outcome,
    runPreview,
    confirm,
    cancel: () => setPreview(undefined),
    /** Forgets the preview and the last result: the text they described was replaced. */
    reset: () => {
      setPreview(undefined);
      setOutcome(undefined);
    },
    /** Shows a failure that happened before any request (the text does not parse, the kind is unknown). */
    fail: (error: unknown) => {
      setPreview(undefined);
      setOutcome({ plan: undefined, object: undefined, status: undefined, error, warnings: [] });
    },
  };
}

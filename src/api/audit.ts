/**
 * An audit event as the server writes it (`audit.<suffix>/v1` kind
 * `Event`): to the Node host's `--audit-log-path`, one JSON object per line,
 * and to the sandbox's live audit view. A wire contract: the server writes
 * it, the UI and tests read it.
 */

import type { JsonValue } from './meta';

export interface AuditEvent {
  kind: 'Event';
  apiVersion: string;
  level: 'Metadata' | 'Request' | 'RequestResponse';
  auditID: string;
  stage: 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';
  requestURI: string;
  verb: string;
  user: { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  impersonatedUser?: { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: {
    resource?: string;
    namespace?: string;
    name?: string;
    apiGroup?: string;
    apiVersion?: string;
    subresource?: string;
  };
  responseStatus?: {
    metadata: Record<string, never>;
    code: number;
    status?: string;
    message?: string;
    reason?: string;
  };
  requestObject?: JsonValue;
  responseObject?: JsonValue;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

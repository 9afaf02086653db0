/**
 * Sends the composed request through the API client (so it lands in the
 * request log like every other) and reads the answer in full: status,
 * every header, and the body — pretty JSON, text, a hex dump of binary
 * (protobuf), or, for a watch or other stream, the text as it arrives
 * until stopped.
 */

import { useRef, useState } from 'react';
import type { ApiClient } from '../../client/index';
import { hasBody, pathWithQuery, type Composed } from './composer-state';

export interface ConsoleAnswer {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
  bodyKind: 'json' | 'text' | 'binary' | 'stream';
  durationMs: number;
  streaming: boolean;
}

const maxStreamChars = 1_000_000;

export function useConsoleRequest(client: ApiClient) {
  const [answer, setAnswer] = useState<ConsoleAnswer | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | undefined>(undefined);

  async function send(composed: Composed): Promise<void> {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setBusy(true);
    setError(undefined);
    setAnswer(undefined);
    const headers: Record<string, string> = {};
    for (const [name, value] of composed.headers) if (name.trim() !== '') headers[name.trim()] = value;
    const init: { body?: string; headers: Record<string, string>; signal: AbortSignal } = {
      headers,
      signal: controller.signal,
    };
    if (hasBody(composed.method) && composed.body !== '') {
      init.body = composed.body;
      headers['Content-Type'] = composed.contentType;
    }
    const started = performance.now();
    try {
      const response = await client.raw(composed.method, pathWithQuery(composed), init);
      const base = {
        status: response.status,
        statusText: response.statusText,
        headers: [...response.headers],
        durationMs: performance.now() - started,
      };
      const type = response.headers.get('content-type') ?? '';
      const watch = /[?&]watch(=1|=true)?(&|$)/.test(pathWithQuery(composed)) || type.includes('x-ndjson');
      if (watch && response.body !== null) {
        setAnswer({ ...base, body: '', bodyKind: 'stream', streaming: true });
        setBusy(false);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let text = '';
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            text = (text + value).slice(-maxStreamChars);
            setAnswer({ ...base, body: text, bodyKind: 'stream', streaming: true });
          }
        } catch {
          // Stopped by the user.
        }
        setAnswer({ ...base, body: text, bodyKind: 'stream', streaming: false });
        return;
      }
      if (type.includes('protobuf') || type.includes('octet-stream')) {
        const bytes = new Uint8Array(await response.arrayBuffer());
        setAnswer({ ...base, body: hexDump(bytes), bodyKind: 'binary', streaming: false });
        return;
      }
      const text = await response.text();
      let pretty = text;
      let kind: ConsoleAnswer['bodyKind'] = 'text';
      if (type.includes('json')) {
        try {
          pretty = JSON.stringify(JSON.parse(text), null, 2);
          kind = 'json';
        } catch {
          // not JSON after all: show as text
        }
      }
      setAnswer({ ...base, body: pretty, bodyKind: kind, streaming: false });
    } catch (e) {
      if (!controller.signal.aborted) setError(e);
    } finally {
      setBusy(false);
    }
  }

  return {
    answer,
    error,
    busy,
    send,
    stop: () => abort.current?.abort(),
  };
}

function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  const shown = bytes.subarray(0, 4096);
  for (let offset = 0; offset < shown.length; offset += 16) {
    const chunk = shown.subarray(offset, offset + 16);
    const hex = [...chunk].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = [...chunk].map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${offset.toString(16).padStart(6, '0')}  ${hex.padEnd(47)}  ${ascii}`);
  }
  if (bytes.length > shown.length) lines.push(`… ${bytes.length} bytes in all`);
  return `${bytes.length} bytes\n${lines.join('\n')}`;
}

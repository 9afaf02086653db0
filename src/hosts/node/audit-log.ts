/**
 * `--audit-log-path`: audit events appended to a file as JSON lines (the
 * real server's `json` log format), or written to standard output for `-`.
 * Writes are queued in order on one stream; a write error is reported once
 * on stderr and does not fail requests, as the real log backend behaves.
 */

import { createWriteStream, type WriteStream } from 'node:fs';
import type { AuditSink } from '../../server/audit';

export function auditLogSinks(path: string | undefined): AuditSink[] {
  if (path === undefined) return [];
  let stream: WriteStream | NodeJS.WriteStream;
  if (path === '-') stream = process.stdout;
  else {
    const file = createWriteStream(path, { flags: 'a' });
    let reported = false;
    file.on('error', (e) => {
      if (!reported) console.error(`Error in audit plugin 'log' affecting events: ${e.message}`);
      reported = true;
    });
    stream = file;
  }
  return [{ write: (event) => void stream.write(`${JSON.stringify(event)}\n`) }];
}

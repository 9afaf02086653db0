/**
 * One container's log, as the runtime keeps it in its log file: lines with
 * the time each was written and its stream, partial lines (no newline yet)
 * held until completed or the container ends, the oldest lines dropped
 * beyond a size limit (as log rotation would), and followers told of each
 * new line until the container ends (`kubectl logs -f`). Reading applies
 * the kubelet's options: `--since`, `--since-time`, `--tail`,
 * `--timestamps`, `--limit-bytes`.
 */

export interface LogLine {
  /** Milliseconds since the epoch on the server's clock, and a sequence number for a stable sub-millisecond stamp. */
  time: number;
  seq: number;
  stream: 'stdout' | 'stderr';
  /** The line with its newline, or a partial line without one. */
  text: string;
}

export interface LogReadOptions {
  tailLines?: number;
  /** Only lines at or after this time (ms). */
  sinceMs?: number;
  timestamps?: boolean;
  limitBytes?: number;
}

/** RFC 3339 with nine fraction digits, as the kubelet prints `--timestamps`. */
export function logTimestamp(line: Pick<LogLine, 'time' | 'seq'>): string {
  const iso = new Date(line.time).toISOString();
  const nanos = String((line.time % 1000) * 1_000_000 + (line.seq % 1_000_000)).padStart(9, '0');
  return `${iso.slice(0, 19)}.${nanos}Z`;
}

const defaultMaxBytes = 1 << 20;

export class LogBuffer {
  private readonly lines: LogLine[] = [];
  private readonly partial = { stdout: '', stderr: '' };
  private readonly partialTime = { stdout: 0, stderr: 0 };
  private bytes = 0;
  private seq = 0;
  private closed = false;
  private readonly followers = new Set<{ line(l: LogLine): void; end(): void }>();

  constructor(private readonly maxBytes = defaultMaxBytes) {}

  /** Text as the program wrote it at `time`, cut into lines. */
  write(stream: 'stdout' | 'stderr', text: string, time: number): void {
    if (this.closed || text === '') return;
    let rest = this.partial[stream] + text;
    if (this.partial[stream] === '') this.partialTime[stream] = time;
    for (let i = rest.indexOf('\n'); i >= 0; i = rest.indexOf('\n')) {
      this.push({
        time: this.partialTime[stream] || time,
        seq: this.seq++,
        stream,
        text: rest.slice(0, i + 1),
      });
      rest = rest.slice(i + 1);
      this.partialTime[stream] = time;
    }
    this.partial[stream] = rest;
  }

  /** The container ended: partial lines are kept as they are and followers are released. */
  close(time: number): void {
    if (this.closed) return;
    for (const stream of ['stdout', 'stderr'] as const)
      if (this.partial[stream] !== '')
        this.push({ time, seq: this.seq++, stream, text: this.partial[stream] });
    this.partial.stdout = this.partial.stderr = '';
    this.closed = true;
    for (const f of this.followers) f.end();
    this.followers.clear();
  }

  get ended(): boolean {
    return this.closed;
  }

  /** The lines the options select, formatted as the kubelet sends them. */
  read(o: LogReadOptions = {}): string {
    let selected = this.lines.filter((l) => o.sinceMs === undefined || l.time >= o.sinceMs);
    for (const stream of ['stdout', 'stderr'] as const)
      if (this.partial[stream] !== '')
        selected.push({ time: this.partialTime[stream], seq: this.seq, stream, text: this.partial[stream] });
    if (o.tailLines !== undefined) selected = o.tailLines === 0 ? [] : selected.slice(-o.tailLines);
    let out = selected.map((l) => format(l, o.timestamps === true)).join('');
    if (o.limitBytes !== undefined) out = truncateBytes(out, o.limitBytes);
    return out;
  }

  /** Tells `line` of each new complete line and `end` when the container ends; the returned function stops it. */
  follow(handlers: { line(text: string): void; end(): void }, o: LogReadOptions = {}): () => void {
    if (this.closed) {
      handlers.end();
      return () => undefined;
    }
    const follower = {
      line: (l: LogLine) => handlers.line(format(l, o.timestamps === true)),
      end: () => handlers.end(),
    };
    this.followers.add(follower);
    return () => this.followers.delete(follower);
  }

  private push(line: LogLine): void {
    this.lines.push(line);
    this.bytes += line.text.length;
    while (this.bytes > this.maxBytes && this.lines.length > 1)
      this.bytes -= (this.lines.shift() as LogLine).text.length;
    for (const f of this.followers) f.line(line);
  }
}

function format(l: LogLine, timestamps: boolean): string {
  return timestamps ? `${logTimestamp(l)} ${l.text}` : l.text;
}

/** At most `limit` bytes of UTF-8, not cutting a character. */
function truncateBytes(text: string, limit: number): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= limit) return text;
  return new TextDecoder().decode(bytes.slice(0, limit)).replace(/\uFFFD$/, '');
}

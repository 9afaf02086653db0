/**
 * The static token file (`--token-auth-file`): CSV rows `token,user,uid`
 * with an optional fourth column of comma-separated groups (quoted, since it
 * holds commas). Parsed as the real server's Go CSV reader does — RFC 4180
 * quoting, blank lines skipped, the same parse errors — so a file that the
 * real server refuses at start is refused here with the same message. Empty
 * tokens are skipped and a repeated token's last row wins. Tokens never
 * expire; the file is read once.
 */

import type { ExplainingTokenAuthenticator, TokenAuthentication, TokenVerdict } from './types';
import type { UserInfo } from '../../api/authn';

/** A Go `csv.ParseError`, with its message format. */
export class CsvParseError extends Error {
  constructor(line: number, column: number, what: string, startLine = line) {
    const where = `parse error on line ${line}, column ${column}: ${what}`;
    super(startLine !== line ? `record on line ${startLine}; ${where}` : where);
    this.name = 'CsvParseError';
  }
}

const bareQuote = 'bare " in non-quoted-field';
const badQuote = 'extraneous or missing " in quoted-field';

/** Splits CSV text into records like Go's `encoding/csv` (comma `,`, variable field counts, strict quotes). */
export function parseCsv(text: string): string[][] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const records: string[][] = [];
  let i = 0;
  while (i < lines.length) {
    const startLine = i + 1;
    let line = lines[i] ?? '';
    i++;
    if (line === '') continue;
    const fields: string[] = [];
    let col = 0; // 0-based index into `line` of the field's start
    for (;;) {
      if (line[col] !== '"') {
        const end = line.indexOf(',', col);
        const field = end < 0 ? line.slice(col) : line.slice(col, end);
        const quote = field.indexOf('"');
        if (quote >= 0) throw new CsvParseError(i, col + quote + 1, bareQuote, startLine);
        fields.push(field);
        if (end < 0) break;
        col = end + 1;
        continue;
      }
      // Quoted field: may span lines; `""` is a quote.
      let value = '';
      let pos = col + 1;
      for (;;) {
        const q = line.indexOf('"', pos);
        if (q < 0) {
          value += line.slice(pos);
          if (i >= lines.length) throw new CsvParseError(i, line.length + 1, badQuote, startLine);
          value += '\n';
          line = lines[i] ?? '';
          i++;
          pos = 0;
          continue;
        }
        value += line.slice(pos, q);
        const after = line[q + 1];
        if (after === '"') {
          value += '"';
          pos = q + 2;
        } else if (after === ',' || after === undefined) {
          pos = q + 1;
          break;
        } else {
          throw new CsvParseError(i, q + 1, badQuote, startLine);
        }
      }
      fields.push(value);
      if (line[pos] === undefined) break;
      col = pos + 1;
    }
    records.push(fields);
  }
  return records;
}

/** The token → user map of a token file; throws the real server's start-up errors. */
export function parseTokenFile(csv: string, path: string): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  for (const record of parseCsv(csv)) {
    if (record.length < 3) {
      throw new Error(
        `token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`,
      );
    }
    const [token = '', username = '', uid = '', groups] = record;
    // The real server logs and skips empty tokens; a duplicate's last row wins.
    if (token === '') continue;
    const user: UserInfo = { username, uid, groups: groups === undefined ? [] : groups.split(',') };
    tokens.set(token, user);
  }
  return tokens;
}

export class TokenFileAuthenticator implements ExplainingTokenAuthenticator {
  private readonly tokens: Map<string, UserInfo>;

  /** `csv` is the file's contents; `path` only names it in errors. Throws for a malformed file. */
  constructor(csv: string, path = 'token-auth-file') {
    this.tokens = parseTokenFile(csv, path);
  }

  get size(): number {
    return this.tokens.size;
  }

  async reviewToken(token: string): Promise<TokenVerdict> {
    const user = this.tokens.get(token);
    if (user === undefined)
      return { kind: 'declined', result: 'no-credential', reason: 'not in the token file' };
    return {
      kind: 'accepted',
      authentication: { user: { ...user, groups: [...user.groups] }, audiences: [] },
    };
  }

  async authenticateToken(token: string): Promise<TokenAuthentication | undefined> {
    const verdict = await this.reviewToken(token);
    return verdict.kind === 'accepted' ? verdict.authentication : undefined;
  }
}

/**
 * Turns typed or pasted text into commands the Terminal runs: one per
 * line, a trailing backslash joining lines, and here-documents
 * (`kubectl apply -f - <<EOF … EOF`, `<<'EOF'`, `<<-EOF`) whose body becomes
 * the command's standard input. `cat > file <<EOF` writes to the file
 * area the same way.
 */

import { splitWords } from './words';

export interface ScriptCommand {
  /** The command line as typed (for history and the transcript). */
  line: string;
  words: string[];
  stdin?: string;
  /** `> file` redirection of standard output. */
  redirect?: string;
}

/** Whether `text` is a complete script (no here-document still open, no trailing backslash). */
export function isComplete(text: string): boolean {
  try {
    parseScript(text);
    return true;
  } catch (error) {
    return !(error instanceof IncompleteScript);
  }
}

export class IncompleteScript extends Error {}

export function parseScript(text: string): ScriptCommand[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: ScriptCommand[] = [];
  let i = 0;
  while (i < lines.length) {
    let line = lines[i++] as string;
    while (line.endsWith('\\')) {
      if (i >= lines.length) throw new IncompleteScript('line continues');
      line = line.slice(0, -1) + (lines[i++] as string);
    }
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const heredoc = /<<(-?)\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2/.exec(line);
    let stdin: string | undefined;
    let commandText = line;
    if (heredoc !== null) {
      commandText = line.slice(0, heredoc.index) + line.slice(heredoc.index + heredoc[0].length);
      const body: string[] = [];
      let closed = false;
      while (i < lines.length) {
        const l = lines[i++] as string;
        const check = heredoc[1] === '-' ? l.replace(/^\t+/, '') : l;
        if (check === heredoc[3]) {
          closed = true;
          break;
        }
        body.push(heredoc[1] === '-' ? l.replace(/^\t+/, '') : l);
      }
      if (!closed) throw new IncompleteScript(`here-document delimited by ${heredoc[3]} is not closed`);
      stdin = body.length > 0 ? body.join('\n') + '\n' : '';
    }
    let words = splitWords(commandText);
    let redirect: string | undefined;
    const gt = words.indexOf('>');
    if (gt >= 0 && words[gt + 1] !== undefined) {
      redirect = words[gt + 1];
      words = [...words.slice(0, gt), ...words.slice(gt + 2)];
    }
    out.push({
      line: line.trim(),
      words,
      ...(stdin !== undefined ? { stdin } : {}),
      ...(redirect !== undefined ? { redirect } : {}),
    });
  }
  return out;
}

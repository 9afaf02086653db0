/**
 * Splits a command line into words the way a POSIX shell does for the
 * simple commands a kubectl tutorial types: whitespace separates words,
 * single quotes keep everything literally, double quotes keep everything
 * but `\"`, `\\`, `\$` and `` \` ``, a backslash outside quotes escapes the
 * next character and a backslash-newline joins lines. No expansion happens
 * (there are no variables or globs in the Terminal), so `$HOME` stays as
 * typed. Used by the Terminal view and by the differential test's step list.
 */

export class ShellSyntaxError extends Error {}

export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new ShellSyntaxError("unexpected EOF while looking for matching `''");
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      inWord = true;
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        const d = line[j] as string;
        if (d === '\\' && j + 1 < line.length && '"\\$`\n'.includes(line[j + 1] as string)) {
          j++;
          if (line[j] !== '\n') word += line[j];
        } else word += d;
      }
      if (j >= line.length) throw new ShellSyntaxError('unexpected EOF while looking for matching `"\'');
      i = j;
    } else if (c === '\\') {
      if (i + 1 < line.length) {
        i++;
        if (line[i] !== '\n') {
          word += line[i];
          inWord = true;
        }
      }
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * Go's text/tabwriter as kubectl configures it (minwidth 6, padding 3,
 * padded with spaces): tab-terminated cells are aligned in columns, a
 * column's width being its widest cell in a block of consecutive lines
 * that have that column; the last cell of a line is not padded. Cell
 * widths count runes, as Go's does.
 */

export interface TabWriterOptions {
  minWidth?: number;
  padding?: number;
}

export function tabwrite(text: string, options: TabWriterOptions = {}): string {
  const minWidth = options.minWidth ?? 6;
  const padding = options.padding ?? 3;
  const lines = text.split('\n');
  const trailingNewline = text.endsWith('\n');
  if (trailingNewline) lines.pop();
  const cells = lines.map((l) => l.split('\t'));
  const widths: number[][] = cells.map((row) => row.map(() => 0));
  // Go's algorithm: format(line0, line1) column by column over blocks of lines that have the column.
  const format = (column: number, line0: number, line1: number): void => {
    let line = line0;
    while (line < line1) {
      // Lines without this column (as a tab-terminated cell) end the block.
      if ((cells[line] as string[]).length - 1 <= column) {
        line++;
        continue;
      }
      const blockStart = line;
      let width = minWidth;
      for (; line < line1 && (cells[line] as string[]).length - 1 > column; line++) {
        const w = runeCount((cells[line] as string[])[column] as string) + padding;
        if (w > width) width = w;
      }
      for (let l = blockStart; l < line; l++) (widths[l] as number[])[column] = width;
      format(column + 1, blockStart, line);
    }
  };
  format(0, 0, cells.length);
  const out = cells.map((row, l) =>
    row
      .map((cell, c) =>
        c < row.length - 1
          ? cell + ' '.repeat(Math.max(0, (widths[l] as number[])[c] as number) - runeCount(cell))
          : cell,
      )
      .join(''),
  );
  return out.join('\n') + (trailingNewline ? '\n' : '');
}

function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

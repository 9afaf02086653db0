/**
 * Reads a list typed into one text field (groups, audiences, SANs): items
 * separated by commas or white space, empty items dropped.
 */

export function splitList(text: string): string[] {
  return text
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

import { describe, expect, it } from 'vitest';
import { tabwrite } from './tabwriter';

describe("Go's tabwriter as kubectl sets it up", () => {
  it('pads columns to their widest cell plus three, at least six, and leaves the last cell alone', () => {
    expect(tabwrite('NAME\tAGE\na\t5s\nlonger-name\t10m\n')).toBe(
      'NAME          AGE\na             5s\nlonger-name   10m\n',
    );
    expect(tabwrite('A\tB\tC\n')).toBe('A     B     C\n');
  });

  it('aligns only consecutive lines that share a column', () => {
    expect(tabwrite('Name:\tx\nLabels:\ta=b\n\tc=d\n', { minWidth: 0, padding: 2 })).toBe(
      'Name:    x\nLabels:  a=b\n         c=d\n',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { isComplete, parseScript } from './script';
import { splitWords } from './words';

describe('command lines and pasted scripts', () => {
  it('splits words as a shell does', () => {
    expect(splitWords(`kubectl get cm -o jsonpath='{.data.a}' "two words" a\\ b`)).toEqual([
      'kubectl',
      'get',
      'cm',
      '-o',
      'jsonpath={.data.a}',
      'two words',
      'a b',
    ]);
  });

  it('feeds a here-document to the command and waits for its end', () => {
    const script = 'kubectl apply -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nEOF\nkubectl get cm';
    expect(isComplete('kubectl apply -f - <<EOF\napiVersion: v1')).toBe(false);
    expect(parseScript(script)).toEqual([
      {
        line: 'kubectl apply -f - <<EOF',
        words: ['kubectl', 'apply', '-f', '-'],
        stdin: 'apiVersion: v1\nkind: ConfigMap\n',
      },
      { line: 'kubectl get cm', words: ['kubectl', 'get', 'cm'] },
    ]);
  });

  it('writes to a file with cat > name', () => {
    expect(parseScript("cat > cm.yaml <<'YAML'\na: 1\nYAML")).toEqual([
      { line: "cat > cm.yaml <<'YAML'", words: ['cat'], redirect: 'cm.yaml', stdin: 'a: 1\n' },
    ]);
  });
});

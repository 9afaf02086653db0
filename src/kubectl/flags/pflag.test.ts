import { describe, expect, it } from 'vitest';
import { FlagError, FlagSet, parseCsvLine, parseGoInt, type FlagSpec } from './pflag';

const specs: FlagSpec[] = [
  { name: 'namespace', shorthand: 'n', type: 'string' },
  { name: 'all', shorthand: 'A', type: 'bool', noOptDefVal: 'true' },
  { name: 'interactive', shorthand: 'i', type: 'bool', noOptDefVal: 'true' },
  { name: 'tty', shorthand: 't', type: 'bool', noOptDefVal: 'true' },
  { name: 'replicas', type: 'int' },
  { name: 'dry-run', type: 'string', default: 'none', noOptDefVal: 'unchanged' },
  { name: 'from-literal', type: 'stringArray' },
  { name: 'verb', type: 'stringSlice' },
];

const parse = (args: string[]) => {
  const f = new FlagSet(specs);
  const positional = f.parse(args);
  return { f, positional };
};

describe('pflag parsing as kubectl sees it', () => {
  it.each([
    [['-n', 'ns'], 'ns'],
    [['-nns'], 'ns'],
    [['-n=ns'], 'ns'],
    [['--namespace', 'ns'], 'ns'],
    [['--namespace=ns'], 'ns'],
  ])('%j sets the namespace', (args, ns) => {
    expect(parse(args).f.string('namespace')).toBe(ns);
  });

  it('stacks boolean shorthands and interleaves arguments', () => {
    const { f, positional } = parse(['get', '-it', 'pods', '--all']);
    expect(f.bool('interactive') && f.bool('tty') && f.bool('all')).toBe(true);
    expect(positional).toEqual(['get', 'pods']);
  });

  it('uses the no-option default and takes booleans written out', () => {
    expect(parse(['--dry-run']).f.string('dry-run')).toBe('unchanged');
    expect(parse(['--dry-run=client']).f.string('dry-run')).toBe('client');
    expect(parse(['--all=false']).f.bool('all')).toBe(false);
  });

  it('ends flags at -- and remembers where', () => {
    const { f, positional } = parse(['job', '--', 'echo', '-n', 'hi']);
    expect(positional).toEqual(['job', 'echo', '-n', 'hi']);
    expect(f.argsLenAtDash).toBe(1);
    expect(f.string('namespace')).toBe('');
  });

  it('normalises underscores and appends repeated array and slice flags', () => {
    const { f } = parse([
      '--from_literal=a=1',
      '--from-literal',
      'b=2,c',
      '--verb=get,list',
      '--verb',
      '"wa,tch"',
    ]);
    expect(f.strings('from-literal')).toEqual(['a=1', 'b=2,c']);
    expect(f.strings('verb')).toEqual(['get', 'list', 'wa,tch']);
  });

  it.each([
    [['--frob'], 'unknown flag: --frob'],
    [['-x'], "unknown shorthand flag: 'x' in -x"],
    [['--namespace'], 'flag needs an argument: --namespace'],
    [['-n'], "flag needs an argument: 'n' in -n"],
    [
      ['--replicas=abc'],
      'invalid argument "abc" for "--replicas" flag: strconv.ParseInt: parsing "abc": invalid syntax',
    ],
    [
      ['--all=maybe'],
      'invalid argument "maybe" for "-A, --all" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    ],
    [['---x'], 'bad flag syntax: ---x'],
  ])("%j fails with pflag's words", (args, message) => {
    expect(() => parse(args)).toThrow(new FlagError(message));
  });

  it('reads Go integers and CSV records', () => {
    expect(parseGoInt('0x10', 64)).toBe(16);
    expect(parseGoInt('010', 64)).toBe(8);
    expect(parseGoInt('-3', 64)).toBe(-3);
    expect(parseCsvLine('a,"b,c",d')).toEqual(['a', 'b,c', 'd']);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { MemoryFs } from '../filesystem';
import { commandsFor } from './commands';
import { piDigits } from './commands/programs';
import { Shell } from './interpreter';
import { Collector, Killed, textInput, type ProcessHost } from './io';
import { awaitedLater } from '../../../../test/support/awaited-later';

const start = Date.UTC(2024, 4, 1, 12, 0, 0);

function host(files: Record<string, string> = {}): ProcessHost & { clock: number } {
  const fs = new MemoryFs();
  for (const d of ['/tmp', '/etc', '/root', '/bin']) fs.mkdirs(d);
  for (const [path, content] of Object.entries(files))
    fs.provide(path, content, path.startsWith('/etc/config'));
  let seed = 1;
  const h = {
    fs,
    hostname: 'web-0',
    image: { name: 'busybox', prettyName: 'BusyBox', prompt: '/ # ' },
    pid: 1,
    clock: start,
    now: () => h.clock,
    async sleep(ms: number) {
      if (!Number.isFinite(ms)) throw new Killed('KILL');
      h.clock += ms;
    },
    tick: async () => undefined,
    checkKilled: () => undefined,
    random: () => (seed = (seed * 16807) % 2147483647) / 2147483647,
    stopRequested: () => new Promise<void>(() => undefined),
  };
  return h;
}

async function run(script: string, files: Record<string, string> = {}, stdin = '') {
  const h = host(files);
  const shell = new Shell({
    host: h,
    commands: commandsFor('busybox', []),
    env: new Map([
      ['PATH', '/bin'],
      ['HOSTNAME', 'web-0'],
      ['GREETING', 'hello world'],
    ]),
  });
  const stdout = new Collector();
  const stderr = new Collector();
  const status = await shell.runText(script, { stdin: textInput(stdin), stdout, stderr });
  return { status, stdout: stdout.text, stderr: stderr.text, elapsed: h.clock - start, fs: h.fs };
}

describe('the tiny shell', () => {
  const cases: [
    string,
    string,
    { stdout?: string; stderr?: string; status?: number; files?: Record<string, string>; stdin?: string },
  ][] = [
    ['echo', 'echo hello', { stdout: 'hello\n' }],
    ['echo -n', 'echo -n a; echo b', { stdout: 'ab\n' }],
    ['echo -e escapes', 'echo -e "a\\tb\\nc"', { stdout: 'a\tb\nc\n' }],
    ['quoting keeps spaces', `echo "a  b" 'c  d' e\\ f`, { stdout: 'a  b c  d e f\n' }],
    ['variables expand and split', 'x="1 2"; for i in $x; do echo "[$i]"; done', { stdout: '[1]\n[2]\n' }],
    ['quoted variables do not split', 'x="1 2"; for i in "$x"; do echo "[$i]"; done', { stdout: '[1 2]\n' }],
    ['env from the container', 'echo $GREETING', { stdout: 'hello world\n' }],
    ['defaults', 'echo ${NOPE:-fallback} ${GREETING:+set} ${#GREETING}', { stdout: 'fallback set 11\n' }],
    [
      'affix removal',
      'f=archive.tar.gz; echo ${f%.gz} ${f%%.*} ${f#*.}',
      { stdout: 'archive.tar archive tar.gz\n' },
    ],
    ['arithmetic', 'i=3; echo $((i * 2 + 1)) $((10 / 3)) $((7 % 4))', { stdout: '7 3 3\n' }],
    ['a counting loop', 'i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done', { stdout: '0\n1\n2\n' }],
    ['until', 'n=0; until [ $n -ge 2 ]; do n=$((n+1)); done; echo $n', { stdout: '2\n' }],
    ['and-or', 'false && echo no; false || echo yes; true && echo both', { stdout: 'yes\nboth\n' }],
    [
      'if elif else',
      'x=2; if [ $x = 1 ]; then echo one; elif [ $x = 2 ]; then echo two; else echo many; fi',
      { stdout: 'two\n' },
    ],
    ['exit status', 'exit 3', { status: 3 }],
    ['$? after a failure', 'false; echo $?', { stdout: '1\n' }],
    ['command substitution', 'echo "host: $(hostname)"', { stdout: 'host: web-0\n' }],
    ['backticks', 'echo `echo inner`', { stdout: 'inner\n' }],
    ['printf', 'printf "%s=%d\\n" a 1 b 2', { stdout: 'a=1\nb=2\n' }],
    ['printf padding', 'printf "[%5s][%-3s][%03d]\\n" ab c 7', { stdout: '[   ab][c  ][007]\n' }],
    ['printf keeps %s arguments as they are', "printf '%s\\n' 'a\\nb'", { stdout: 'a\\nb\n' }],
    ['unknown command', 'nosuch arg', { stderr: 'sh: nosuch: not found\n', status: 127 }],
    [
      'a syntax error',
      'while true; do echo',
      { stderr: 'sh: syntax error: unexpected end of file\n', status: 2 },
    ],
    ['unexpected done', 'echo a; done', { stderr: 'sh: syntax error: unexpected "done"\n', status: 2 }],
    [
      'cat of a mounted file',
      'cat /etc/config/app.properties',
      { stdout: 'color=blue\n', files: { '/etc/config/app.properties': 'color=blue\n' } },
    ],
    [
      'cat of a missing file',
      'cat /nope',
      { stderr: "cat: can't open '/nope': No such file or directory\n", status: 1 },
    ],
    [
      'mounted volumes are read-only',
      'echo x > /etc/config/new',
      {
        stderr: "sh: can't create /etc/config/new: Read-only file system\n",
        status: 1,
        files: { '/etc/config/a': 'a' },
      },
    ],
    [
      'touch, test and rm',
      'touch /tmp/healthy; [ -f /tmp/healthy ] && echo there; rm /tmp/healthy; cat /tmp/healthy',
      { stdout: 'there\n', stderr: "cat: can't open '/tmp/healthy': No such file or directory\n", status: 1 },
    ],
    ['redirect and append', 'echo a > /tmp/f; echo b >> /tmp/f; cat /tmp/f', { stdout: 'a\nb\n' }],
    ['stderr redirection', 'echo err >&2; echo out 2>/dev/null', { stdout: 'out\n', stderr: 'err\n' }],
    ['2>&1 into a pipe', 'cat /nope 2>&1 | wc -l', { stdout: '1\n' }],
    ['pipes', 'printf "b\\na\\nc\\n" | sort | head -n 2', { stdout: 'a\nb\n' }],
    ['grep', 'printf "one\\ntwo\\nthree\\n" | grep -v o', { stdout: 'three\n' }],
    [
      'ls of a mounted directory',
      'ls /etc/config',
      { stdout: 'a\nb\n', files: { '/etc/config/a': '', '/etc/config/b': '' } },
    ],
    [
      'globbing',
      'cat /etc/config/*',
      { stdout: 'AB', files: { '/etc/config/a': 'A', '/etc/config/b': 'B' } },
    ],
    ['sh -c with arguments', `sh -c 'echo $0 $1' name arg`, { stdout: 'name arg\n' }],
    ['exit in sh -c does not end the caller', `sh -c 'exit 4'; echo $?`, { stdout: '4\n' }],
    ['functions', 'greet() { echo "hi $1"; }; greet you', { stdout: 'hi you\n' }],
    ['printenv', 'printenv GREETING; printenv NOPE; echo $?', { stdout: 'hello world\n1\n' }],
    ['env lists the environment', 'env', { stdout: 'PATH=/bin\nHOSTNAME=web-0\nGREETING=hello world\n' }],
    ['export reaches child processes', 'export A=1; B=2; sh -c \'echo "$A-$B"\'', { stdout: '1-\n' }],
    [
      'prefix assignments are for the command only',
      'A=1 sh -c \'echo $A\'; echo "[$A]"',
      { stdout: '1\n[]\n' },
    ],
    ['break', 'for i in 1 2 3; do [ $i = 2 ] && break; echo $i; done', { stdout: '1\n' }],
    ['set -e stops at a failure', 'set -e; echo a; false; echo b', { stdout: 'a\n', status: 1 }],
    ['set -e ignores conditions', 'set -e; if false; then :; fi; false || true; echo ok', { stdout: 'ok\n' }],
    [
      'read from stdin',
      'while read line; do echo "got $line"; done',
      { stdout: 'got a\ngot b\n', stdin: 'a\nb\n' },
    ],
    [
      'date on the server clock',
      'date; date +%s; date -u +%Y-%m-%dT%H:%M:%SZ',
      { stdout: 'Wed May  1 12:00:00 UTC 2024\n1714564800\n2024-05-01T12:00:00Z\n' },
    ],
    ['uname and id', 'uname; id', { stdout: 'Linux\nuid=0(root) gid=0(root) groups=0(root)\n' }],
    ['wc', 'printf "a b\\nc\\n" | wc', { stdout: '      2       3       6\n' }],
    ['expr', 'expr 2 + 3; expr 5 \\> 2', { stdout: '5\n1\n' }],
    ['seq', 'seq 3; seq 2 2 6', { stdout: '1\n2\n3\n2\n4\n6\n' }],
    ['tr', 'echo hello | tr a-z A-Z', { stdout: 'HELLO\n' }],
    ['cut', 'echo a:b:c | cut -d: -f2-', { stdout: 'b:c\n' }],
    ['comments', 'echo a # not this\n# nor this\necho b', { stdout: 'a\nb\n' }],
    ['multi-line scripts', 'for i in 1 2\ndo\n  echo $i\ndone', { stdout: '1\n2\n' }],
    ['exec replaces the shell', 'exec echo replaced; echo never', { stdout: 'replaced\n' }],
  ];

  for (const [name, script, expected] of cases) {
    it(name, async () => {
      const r = await run(script, expected.files, expected.stdin);
      expect({ stdout: r.stdout, stderr: r.stderr, status: r.status }).toEqual({
        stdout: expected.stdout ?? '',
        stderr: expected.stderr ?? '',
        status: expected.status ?? 0,
      });
    });
  }

  it('sleeps on the process clock', async () => {
    const r = await run('sleep 1; sleep 0.5; sleep 2m; echo done');
    expect(r.stdout).toBe('done\n');
    expect(r.elapsed).toBe(1_000 + 500 + 120_000);
  });

  it('refuses a sleep it cannot read', async () => {
    const r = await run('sleep soon');
    expect([r.status, r.stderr]).toEqual([1, "sleep: invalid number 'soon'\n"]);
  });

  it('runs the trap of SIGTERM after the current command', async () => {
    const h = host();
    let wake: () => void = () => undefined;
    h.sleep = () => new Promise<void>((resolve) => (wake = resolve));
    const shell = new Shell({ host: h, commands: commandsFor('busybox', []), env: new Map(), pid1: true });
    const out = new Collector();
    // Without a trap a main process ignores SIGTERM, as any PID 1 does.
    expect(shell.signal('TERM')).toBe('ignored');
    const running = awaitedLater(
      shell.runText("trap 'echo bye; exit 0' TERM; echo up; sleep 1; echo after", {
        stdin: textInput(''),
        stdout: out,
        stderr: out,
      }),
    );
    await vi.waitFor(() => expect(out.text).toBe('up\n'));
    expect(shell.signal('TERM')).toBe('handled');
    wake();
    expect(await running).toBe(0);
    expect(out.text).toBe('up\nbye\n');
  });
});

describe('π for the Job tutorial', () => {
  it('has the digits perl prints', () => {
    expect(piDigits(10)).toBe('3.141592654');
    expect(piDigits(50)).toBe('3.1415926535897932384626433832795028841971693993751');
    expect(piDigits(2000)).toHaveLength(2001);
  });
});

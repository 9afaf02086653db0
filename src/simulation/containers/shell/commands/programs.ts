/**
 * The programs images bring beyond a shell's userland: the web servers
 * (nginx with its entrypoint script, httpd, the sample apps), `pause`,
 * `redis-server`, `hello`, `perl` (enough for the Job tutorial's
 * `perl -Mbignum=bpi -wle 'print bpi(2000)'`), and `curl`/`wget` for the
 * container's own server. A server prints what the real one prints at
 * start, waits for its stop signal, then prints its shutdown and exits 0.
 */

import type { CommandContext, CommandFn } from '../interpreter';
import { strftime } from './system';

/** nginx's error-log time stamp (`2024/05/01 12:00:00`). */
const logTime = (ms: number) => strftime('%Y/%m/%d %H:%M:%S', ms);

const nginxVersion = '1.25.3';

async function nginxServer(ctx: CommandContext): Promise<number> {
  const host = ctx.shell.host;
  const args = ctx.args;
  if (args.includes('-v') || args.includes('-V')) {
    ctx.stderr.write(`nginx version: nginx/${nginxVersion}\n`);
    return 0;
  }
  if (args.includes('-t')) {
    ctx.stderr.write(
      'nginx: the configuration file /etc/nginx/nginx.conf syntax is ok\nnginx: configuration file /etc/nginx/nginx.conf test is successful\n',
    );
    return 0;
  }
  if (args.includes('-s')) {
    ctx.stderr.write(`${logTime(host.now())} [notice] ${host.pid}#${host.pid}: signal process started\n`);
    return 0;
  }
  const notice = (text: string, pid = 1) =>
    ctx.stderr.write(`${logTime(host.now())} [notice] ${pid}#${pid}: ${text}\n`);
  notice('using the "epoll" event method');
  notice(`nginx/${nginxVersion}`);
  notice('built by gcc 12.2.0 (Debian 12.2.0-14) ');
  notice('OS: Linux 5.15.0-sandbox');
  notice('getrlimit(RLIMIT_NOFILE): 1048576:1048576');
  notice('start worker processes');
  notice('start worker process 29');
  host.listen?.();
  await host.stopRequested();
  // The image's stop signal is SIGQUIT: a graceful shutdown.
  notice('signal 3 (SIGQUIT) received, shutting down');
  notice('gracefully shutting down', 29);
  notice('exiting', 29);
  notice('exit', 29);
  notice('signal 17 (SIGCHLD) received from 29');
  notice('worker process 29 exited with code 0');
  notice('exit');
  return 0;
}

async function nginxEntrypoint(ctx: CommandContext): Promise<number> {
  const out = (t: string) => ctx.stdout.write(`${t}\n`);
  const [command = '', ...rest] = ctx.args;
  if (command === 'nginx' || command === 'nginx-debug') {
    out('/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration');
    out('/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/');
    out('/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh');
    out('10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf');
    out('10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf');
    out('/docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh');
    out('/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh');
    out('/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh');
    out('/docker-entrypoint.sh: Configuration complete; ready for start up');
  }
  // The script ends with `exec "$@"`.
  return ctx.shell.runCommand(command, rest, ctx.env, ctx);
}

async function httpd(ctx: CommandContext): Promise<number> {
  const host = ctx.shell.host;
  const stamp = () => strftime('%a %b %d %H:%M:%S.000000 %Y', host.now());
  ctx.stderr.write(
    `AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using ${host.hostname}. Set the 'ServerName' directive globally to suppress this message\n`,
  );
  ctx.stderr.write(
    `AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using ${host.hostname}. Set the 'ServerName' directive globally to suppress this message\n`,
  );
  ctx.stderr.write(
    `[${stamp()}] [mpm_event:notice] [pid 1:tid 140000000000000] AH00489: Apache/2.4.58 (Unix) configured -- resuming normal operations\n`,
  );
  ctx.stderr.write(
    `[${stamp()}] [core:notice] [pid 1:tid 140000000000000] AH00094: Command line: 'httpd -D FOREGROUND'\n`,
  );
  host.listen?.();
  await host.stopRequested();
  ctx.stderr.write(
    `[${stamp()}] [mpm_event:notice] [pid 1:tid 140000000000000] AH00491: caught SIGTERM, shutting down\n`,
  );
  return 0;
}

/** A server that prints a line, then serves until stopped. */
function quietServer(startLine: (ctx: CommandContext) => string | undefined): CommandFn {
  return async (ctx) => {
    const line = startLine(ctx);
    if (line !== undefined) ctx.stderr.write(`${line}\n`);
    ctx.shell.host.listen?.();
    await ctx.shell.host.stopRequested();
    return 0;
  };
}

async function redisServer(ctx: CommandContext): Promise<number> {
  const host = ctx.shell.host;
  const stamp = () => strftime('%d %b %Y %H:%M:%S.000', host.now());
  const out = (kind: string, text: string) => ctx.stdout.write(`1:${kind} ${stamp()} ${text}\n`);
  out('C', '* oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo');
  out('C', '* Redis version=7.2.3, bits=64, commit=00000000, modified=0, pid=1, just started');
  out(
    'C',
    '# Warning: no config file specified, using the default config. In order to specify a config file use redis-server /path/to/redis.conf',
  );
  out('M', '* monotonic clock: POSIX clock_gettime');
  out('M', '* Running mode=standalone, port=6379.');
  out('M', '* Server initialized');
  out('M', '* Ready to accept connections tcp');
  host.listen?.();
  await host.stopRequested();
  out('signal-handler (0000000000)', 'Received SIGTERM scheduling shutdown...');
  out('M', '# User requested shutdown...');
  out('M', '* Saving the final RDB snapshot before exiting.');
  out('M', '* DB saved on disk');
  out('M', '# Redis is now ready to exit, bye bye...');
  return 0;
}

async function redisEntrypoint(ctx: CommandContext): Promise<number> {
  const [command = '', ...rest] = ctx.args;
  return ctx.shell.runCommand(command, rest, ctx.env, ctx);
}

async function redisCli(ctx: CommandContext): Promise<number> {
  const command = ctx.args
    .filter((a) => !a.startsWith('-'))
    .join(' ')
    .toUpperCase();
  ctx.stdout.write(command === 'PING' || command === '' ? 'PONG\n' : 'OK\n');
  return 0;
}

async function hello(ctx: CommandContext): Promise<number> {
  ctx.stdout.write(`
Hello from Docker!
This message shows that your installation appears to be working correctly.

To generate this message, Docker took the following steps:
 1. The Docker client contacted the Docker daemon.
 2. The Docker daemon pulled the "hello-world" image from the Docker Hub.
    (amd64)
 3. The Docker daemon created a new container from that image which runs the
    executable that produces the output you are currently reading.
 4. The Docker daemon streamed that output to the Docker client, which sent it
    to your terminal.

To try something more ambitious, you can run an Ubuntu container with:
 $ docker run -it ubuntu bash

Share images, automate workflows, and more with a free Docker ID:
 https://hub.docker.com/

For more examples and ideas, visit:
 https://docs.docker.com/get-started/

`);
  return 0;
}

/** π to `digits` significant digits, by Machin's formula over big integers (what `bpi(digits)` prints). */
export function piDigits(digits: number): string {
  const guard = 10n;
  const scale = 10n ** (BigInt(digits) + guard);
  const arctanInv = (x: bigint): bigint => {
    let sum = 0n;
    let term = scale / x;
    const x2 = x * x;
    for (let n = 1n, sign = 1n; term !== 0n; n += 2n, sign = -sign) {
      sum += (sign * term) / n;
      term /= x2;
    }
    return sum;
  };
  const pi = 16n * arctanInv(5n) - 4n * arctanInv(239n);
  // Rounded to `digits` significant digits, as Math::BigFloat does.
  const text = ((pi / 10n ** guard + 5n) / 10n).toString();
  return digits <= 1 ? text.slice(0, 1) : `${text[0] ?? ''}.${text.slice(1, digits)}`;
}

async function perl(ctx: CommandContext): Promise<number> {
  const args = ctx.args;
  if (args.includes('-v')) {
    ctx.stdout.write(
      '\nThis is perl 5, version 34, subversion 0 (v5.34.0) built for x86_64-linux-gnu-thread-multi\n',
    );
    return 0;
  }
  const eIndex = args.findIndex((a) => /^-[a-zA-Z]*[eE]$/.test(a) || a === '-wle');
  const script = eIndex >= 0 ? (args[eIndex + 1] ?? '') : '';
  const newline = args.some((a) => /^-[a-zA-Z]*l/.test(a));
  const bpi = /print\s+bpi\((\d+)\)/.exec(script);
  if (bpi !== null) {
    const digits = Number(bpi[1]);
    // Computing the digits takes a while, as it does for perl (about ten seconds for 2000).
    await ctx.shell.host.sleep(Math.min(20_000, digits * 5));
    ctx.stdout.write(piDigits(digits) + (newline ? '\n' : ''));
    return 0;
  }
  const print = /^\s*print\s+(["'])(.*)\1\s*;?\s*$/.exec(script);
  if (print !== null) {
    const text = (print[2] ?? '').replace(/\\n/g, '\n').replace(/\\t/g, '\t');
    ctx.stdout.write(text + (newline ? '\n' : ''));
    return 0;
  }
  if (script === '') {
    // The image's default `perl -de0` needs a terminal; without one it reads nothing and ends.
    ctx.stdout.write(
      "\nLoading DB routines from perl5db.pl version 1.60\nEditor support available.\n\nEnter h or 'h h' for help, or 'man perldebug' for more help.\n\nmain::(-e:1):\t0\n",
    );
    return 0;
  }
  ctx.stderr.write(
    'syntax error at -e line 1, near "' +
      script.slice(0, 20) +
      '"\nExecution of -e aborted due to compilation errors.\n',
  );
  return 255;
}

/** `curl`/`wget` of the container's own server (`localhost`, its host name); other hosts do not resolve. */
function httpClient(tool: 'curl' | 'wget'): CommandFn {
  return async (ctx) => {
    const url = ctx.args.find((a) => !a.startsWith('-') && a !== '-O') ?? '';
    const web = ctx.shell.host.web;
    const m = /^(?:https?:\/\/)?([^/:]+)(?::(\d+))?(\/.*)?$/.exec(url);
    if (m === null) {
      ctx.stderr.write(
        tool === 'curl'
          ? `curl: (3) URL using bad/illegal format or missing URL\n`
          : `wget: bad address '${url}'\n`,
      );
      return tool === 'curl' ? 3 : 1;
    }
    const [, hostName = '', port, path = '/'] = m;
    const local = ['localhost', '127.0.0.1', ctx.shell.host.hostname].includes(hostName);
    if (!local) {
      ctx.stderr.write(
        tool === 'curl'
          ? `curl: (6) Could not resolve host: ${hostName}\n`
          : `wget: bad address '${hostName}'\n`,
      );
      return tool === 'curl' ? 6 : 1;
    }
    const wanted = port === undefined ? 80 : Number(port);
    if (web === undefined || web.port !== wanted) {
      ctx.stderr.write(
        tool === 'curl'
          ? `curl: (7) Failed to connect to ${hostName} port ${wanted} after 0 ms: Couldn't connect to server\n`
          : `wget: can't connect to remote host (127.0.0.1): Connection refused\n`,
      );
      return tool === 'curl' ? 7 : 1;
    }
    const page = web.serve(path, tool === 'curl' ? 'curl/7.88.1' : 'Wget');
    if (tool === 'wget' && page.status >= 400) {
      ctx.stderr.write(`wget: server returned error: HTTP/1.1 ${page.status} Not Found\n`);
      return 1;
    }
    if (
      tool === 'wget' &&
      !ctx.args.includes('-O-') &&
      !(ctx.args.includes('-O') && ctx.args.includes('-'))
    ) {
      const q = ctx.args.includes('-q');
      if (!q) ctx.stderr.write(`Connecting to ${hostName} (127.0.0.1:${wanted})\nsaving to 'index.html'\n`);
      try {
        ctx.shell.host.fs.write(`${ctx.shell.cwd}/index.html`, page.body);
      } catch {
        ctx.stderr.write(`wget: can't open 'index.html': Read-only file system\n`);
        return 1;
      }
      return 0;
    }
    ctx.stdout.write(page.body);
    return 0;
  };
}

export const imagePrograms: Record<string, CommandFn> = {
  nginx: nginxServer,
  '/docker-entrypoint.sh': nginxEntrypoint,
  'httpd-foreground': httpd,
  '/pause': quietServer(() => undefined),
  './hello-app': quietServer(() => '2024/01/01 00:00:00 Server listening on port 8080'),
  '/agnhost': quietServer((ctx) =>
    ctx.args[0] === 'netexec' ? 'Started HTTP server on port 8080' : undefined,
  ),
  'redis-server': redisServer,
  'docker-entrypoint.sh': redisEntrypoint,
  'redis-cli': redisCli,
  '/hello': hello,
  perl,
  curl: httpClient('curl'),
  wget: httpClient('wget'),
};

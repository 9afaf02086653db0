/**
 * The Terminal view (`#/terminal`): kubectl in the browser. An xterm.js
 * terminal in screen-reader mode (so its text is in the page for assistive
 * technology and tests) runs the same kubectl as `npm run kubectl`, over
 * the in-browser server, as the tab's identity: a prompt with history
 * (↑/↓, kept in this browser), Tab completion, Ctrl-C to stop a watch,
 * multi-line pastes with here-documents, `ls`/`cat`/`rm` over a small file
 * area. Beside it, every command keeps a "requests" fold listing the HTTP
 * requests it sent, each linking to the console, the request log and, for
 * writes, its admission trace. A link `#/terminal?command=<command>` (the
 * course's steps use it) types the command at the prompt without running
 * it: the learner reads it, may change it, and presses Enter.
 */

import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { runKubectl, type RequestRecord } from '../../kubectl';
import { commonPrefix, complete } from '../../kubectl/complete';
import { isComplete, parseScript, type ScriptCommand } from '../../kubectl/shell/script';
import { useClient } from '../client-context';
import { useRequestLog } from '../app/RequestLogContext';
import type { ViewProps } from '../app/view-props';
import { useIdentityStore } from '../identity/IdentityContext';
import { navigate, routeHref } from '../lib/route';
import { browserKubectlIO } from './browser-io';
import { FileArea } from './file-area';
import { History } from './history';
import './terminal.css';

interface Transcript {
  id: number;
  line: string;
  code?: number;
  requests: RequestRecord[];
}

const prompt = '$ ';
const help = `Commands: kubectl (or k) …, ls, cat FILE, cat > FILE <<EOF … EOF, rm FILE, clear, help.
Contexts are the sandbox identities: kubectl config get-contexts, kubectl config use-context alice.
`;

export function TerminalView({ params, active }: ViewProps) {
  const container = useRef<HTMLDivElement>(null);
  const identities = useIdentityStore();
  const log = useRequestLog();
  const client = useClient();
  const filesRef = useRef<FileArea | null>(null);
  filesRef.current ??= new FileArea();
  const files = filesRef.current;
  const fileList = useSyncExternalStore(
    (l) => files.subscribe(l),
    () => files.list().join('\n'),
  );
  const [transcripts, setTranscripts] = useState<Transcript[]>([]);
  const termRef = useRef<Terminal | null>(null);
  const fitRef = useRef<FitAddon | null>(null);
  const clientRef = useRef(client);
  clientRef.current = client;
  const prefillRef = useRef<((text: string) => void) | null>(null);

  useEffect(() => {
    if (container.current === null) return;
    const term = new Terminal({
      screenReaderMode: true,
      convertEol: true,
      cursorBlink: true,
      fontSize: 13,
      scrollback: 5000,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(container.current);
    fit.fit();
    termRef.current = term;
    fitRef.current = fit;
    const history = new History();
    let buffer = '';
    let running: AbortController | undefined;
    let nextId = 1;
    term.write('kubectl v1.27 over the in-browser server. Type "help".\n' + prompt);

    const runOne = async (cmd: ScriptCommand, signal: AbortSignal): Promise<void> => {
      const [head, ...rest] = cmd.words;
      if (head === undefined) return;
      let out = '';
      const write = (text: string) => {
        if (cmd.redirect !== undefined) out += text;
        else term.write(text);
      };
      if (head === 'clear') {
        term.clear();
        return;
      }
      if (head === 'help') return void term.write(help);
      if (head === 'ls') {
        const names = files.list();
        term.write(names.length === 0 ? '' : names.join('\n') + '\n');
        return;
      }
      if (head === 'rm') {
        for (const f of rest)
          if (!files.remove(f)) term.write(`rm: cannot remove '${f}': No such file or directory\n`);
        return;
      }
      if (head === 'cat') {
        if (cmd.redirect !== undefined) {
          files.write(cmd.redirect, cmd.stdin ?? '');
          return;
        }
        for (const f of rest) {
          const text = files.read(f);
          term.write(text === undefined ? `cat: ${f}: No such file or directory\n` : text);
        }
        return;
      }
      if (head !== 'kubectl' && head !== 'k') {
        term.write(`sh: ${head}: command not found\n`);
        return;
      }
      const transcript: Transcript = { id: nextId++, line: cmd.line, requests: [] };
      setTranscripts((t) => [transcript, ...t].slice(0, 100));
      const io = browserKubectlIO({
        identities,
        log,
        files,
        stdout: write,
        stderr: (text) => term.write(text),
        stdin: cmd.stdin ?? '',
        signal,
        onRequest: (record) => {
          transcript.requests = [...transcript.requests, record];
          setTranscripts((t) => t.map((x) => (x.id === transcript.id ? { ...transcript } : x)));
        },
        openEditor: (path) => navigate('editor', { path }),
      });
      let code: number;
      try {
        code = await runKubectl(rest, io);
      } catch (error) {
        term.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
        code = 1;
      }
      if (cmd.redirect !== undefined) files.write(cmd.redirect, out);
      transcript.code = code;
      setTranscripts((t) => t.map((x) => (x.id === transcript.id ? { ...transcript } : x)));
    };

    const runScript = async (text: string): Promise<void> => {
      let commands: ScriptCommand[];
      try {
        commands = parseScript(text);
      } catch (error) {
        term.write(`sh: ${error instanceof Error ? error.message : String(error)}\n${prompt}`);
        return;
      }
      for (const cmd of commands) {
        history.add(cmd.line + (cmd.stdin !== undefined ? `\n${cmd.stdin}` : ''));
        running = new AbortController();
        await runOne(cmd, running.signal);
        const aborted = running.signal.aborted;
        running = undefined;
        if (aborted) break;
      }
      term.write(prompt);
      if (pendingPrefill !== undefined) {
        const text = pendingPrefill;
        pendingPrefill = undefined;
        prefill(text);
      }
    };

    // A linked command replaces what is being typed; while a command runs it waits for the next prompt.
    let pendingPrefill: string | undefined;
    const prefill = (text: string) => {
      if (running !== undefined) {
        pendingPrefill = text;
        return;
      }
      if (buffer.includes('\n')) {
        // A multi-line input cannot be erased in place: abandon it as Ctrl-C does.
        buffer = '';
        term.write('^C\n' + prompt);
      }
      replaceLine(text);
    };
    prefillRef.current = prefill;

    const submit = () => {
      const text = buffer;
      if (!isComplete(text)) {
        buffer += '\n';
        term.write('\n> ');
        return;
      }
      buffer = '';
      term.write('\n');
      if (text.trim() === '') {
        term.write(prompt);
        return;
      }
      void runScript(text);
    };

    const replaceLine = (text: string) => {
      const lastLine = buffer.split('\n').pop() ?? '';
      term.write('\b \b'.repeat([...lastLine].length));
      buffer = buffer.slice(0, buffer.length - lastLine.length) + text;
      term.write(text.replace(/\n/g, '\n> '));
    };

    const tab = async () => {
      const line = buffer.split('\n').pop() ?? '';
      const words = line.split(/\s+/);
      if (words[0] !== 'kubectl' && words[0] !== 'k') return;
      const c = clientRef.current;
      const candidates = await complete(words.slice(1), {
        types: async () => {
          const d = await c.discovery();
          return [
            ...new Set(
              d.groupVersions.flatMap((gv) => gv.resources.flatMap((r) => [r.name, ...(r.shortNames ?? [])])),
            ),
          ];
        },
        names: async (type) => {
          const d = await c.discovery();
          for (const gv of d.groupVersions) {
            const r = gv.resources.find(
              (x) => x.name === type || (x.shortNames ?? []).includes(type) || x.singularName === type,
            );
            if (r === undefined) continue;
            const list = await c.list({
              group: gv.group,
              version: gv.version,
              resource: r.name,
              ...(r.namespaced ? { namespace: 'default' } : {}),
            });
            return list.items.map((i) => i.metadata?.name ?? '');
          }
          return [];
        },
      }).catch(() => []);
      const current = words[words.length - 1] ?? '';
      if (candidates.length === 1)
        replaceLine(line.slice(0, line.length - current.length) + candidates[0] + ' ');
      else if (candidates.length > 1) {
        const prefix = commonPrefix(candidates);
        if (prefix.length > current.length) replaceLine(line.slice(0, line.length - current.length) + prefix);
        else {
          term.write('\n' + candidates.join('  ') + '\n' + prompt);
          term.write(buffer);
        }
      }
    };

    const onData = term.onData((data) => {
      if (data === '\x03') {
        if (running !== undefined) {
          running.abort();
          term.write('^C\n');
        } else {
          buffer = '';
          term.write('^C\n' + prompt);
        }
        return;
      }
      if (running !== undefined) return;
      if (data.length > 1 && /[\r\n]/.test(data)) {
        // A paste of several lines: run it once it is complete, as a shell does.
        const text = data.replace(/\r\n?/g, '\n');
        buffer += text;
        term.write(text.replace(/\n/g, '\n> '));
        if (buffer.endsWith('\n')) {
          const script = buffer.slice(0, -1);
          if (isComplete(script)) {
            buffer = '';
            term.write('\r\x1b[2K');
            void runScript(script);
          }
        }
        return;
      }
      switch (data) {
        case '\r':
          submit();
          return;
        case '\x7f':
        case '\b':
          if (buffer.length > 0 && !buffer.endsWith('\n')) {
            buffer = buffer.slice(0, -1);
            term.write('\b \b');
          }
          return;
        case '\x1b[A':
          replaceLine(history.previous(buffer) ?? buffer.split('\n').pop() ?? '');
          return;
        case '\x1b[B':
          replaceLine(history.next() ?? '');
          return;
        case '\t':
          void tab();
          return;
        case '\x0c':
          term.clear();
          return;
      }
      if (data.startsWith('\x1b')) return;
      buffer += data;
      term.write(data);
    });

    // Fit only when the box really changed size: fitting resizes the terminal, which must not loop.
    let lastSize = '';
    const resize = new ResizeObserver((entries) => {
      const box = entries[0]?.contentRect;
      const size = box === undefined ? '' : `${Math.round(box.width)}x${Math.round(box.height)}`;
      if (size === lastSize || size === '0x0') return;
      lastSize = size;
      requestAnimationFrame(() => {
        try {
          fit.fit();
        } catch {
          // Not laid out (hidden view).
        }
      });
    });
    resize.observe(container.current);
    return () => {
      onData.dispose();
      resize.disconnect();
      term.dispose();
      termRef.current = null;
      prefillRef.current = null;
    };
  }, [identities, log, files]);

  // `params` is a new object on every navigation here, so following a command link again types it again.
  const command = params['command'];
  useEffect(() => {
    if (command !== undefined && command !== '') prefillRef.current?.(command);
  }, [params, command]);

  useEffect(() => {
    if (!active) return;
    try {
      fitRef.current?.fit();
    } catch {
      // Not laid out yet.
    }
    termRef.current?.focus();
  }, [active]);

  const onFiles = async (list: FileList | null) => {
    for (const file of Array.from(list ?? [])) files.write(file.name, await file.text());
  };

  return (
    <main id="main" tabIndex={-1} className="terminal-view">
      <section className="terminal-pane" aria-label="Terminal">
        <div ref={container} className="terminal-host" data-testid="terminal" />
      </section>
      <aside className="terminal-side">
        <section aria-labelledby="terminal-files">
          <h2 id="terminal-files">Files</h2>
          <div
            className="terminal-drop"
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              void onFiles(e.dataTransfer.files);
            }}
          >
            <label>
              Add files <input type="file" multiple onChange={(e) => void onFiles(e.target.files)} />
            </label>
            <p>
              or drop them here; <code>-f NAME</code> and <code>--from-file</code> read them.
            </p>
          </div>
          {fileList === '' ? (
            <p className="terminal-empty">No files yet.</p>
          ) : (
            <ul className="terminal-files">
              {fileList.split('\n').map((name) => (
                <li key={name}>
                  <code>{name}</code>{' '}
                  <button type="button" onClick={() => files.remove(name)} aria-label={`Remove ${name}`}>
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="terminal-requests">
          <h2 id="terminal-requests">Requests</h2>
          {transcripts.length === 0 ? (
            <p className="terminal-empty">Run a kubectl command to see what it sends.</p>
          ) : null}
          {transcripts.map((t) => (
            <details key={t.id} className="terminal-transcript">
              <summary>
                <code>{t.line}</code> — {t.requests.length} request{t.requests.length === 1 ? '' : 's'}
                {t.code !== undefined ? ` (exit ${t.code})` : ' (running)'}
              </summary>
              <ul>
                {t.requests.map((r, i) => {
                  const url = new URL(r.url);
                  const path = url.pathname + url.search;
                  const write = r.method !== 'GET' && r.method !== 'HEAD';
                  return (
                    <li key={i}>
                      <code>
                        {r.method} {path}
                      </code>{' '}
                      {r.status} ({r.durationMs} ms){' '}
                      <a href={routeHref('console', { method: r.method, path })}>Console</a>{' '}
                      <a href={routeHref('console')}>Request log</a>
                      {write && r.auditId !== undefined ? (
                        <>
                          {' '}
                          <a href={routeHref('traces', { id: r.auditId })}>Admission trace</a>
                        </>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            </details>
          ))}
        </section>
      </aside>
    </main>
  );
}

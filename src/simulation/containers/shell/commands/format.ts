/**
 * `printf`'s format language and the backslash escapes `echo -e` and
 * `printf` share: conversions `%s %b %c %d %i %u %x %X %o %f %e %g %%`
 * with flags, width and precision; the format is reused while arguments
 * remain, as the shell's printf does.
 */

/** Backslash escapes; `stop` is set by `\c` (no further output, not even the newline). */
export function interpretEscapes(text: string): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (c !== '\\' || i + 1 >= text.length) {
      out += c;
      continue;
    }
    const n = text[++i] ?? '';
    switch (n) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'a':
        out += '\x07';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'v':
        out += '\v';
        break;
      case 'e':
        out += '\x1b';
        break;
      case '\\':
        out += '\\';
        break;
      case 'c':
        return { text: out, stop: true };
      case '0':
      case 'x': {
        const re = n === '0' ? /^[0-7]{0,3}/ : /^[0-9a-fA-F]{1,2}/;
        const m = re.exec(text.slice(i + 1));
        const digits = m?.[0] ?? '';
        if (n === 'x' && digits === '') {
          out += '\\x';
          break;
        }
        out += String.fromCharCode(parseInt(digits === '' ? '0' : digits, n === '0' ? 8 : 16));
        i += digits.length;
        break;
      }
      default:
        out += `\\${n}`;
    }
  }
  return { text: out, stop: false };
}

function numberArg(arg: string | undefined, errors: string[]): number {
  if (arg === undefined || arg === '') return 0;
  if (/^['"]/.test(arg)) return arg.codePointAt(1) ?? 0;
  const n = Number(arg.trim());
  if (!Number.isFinite(n)) {
    errors.push(`invalid number '${arg}'`);
    return 0;
  }
  return n;
}

function pad(text: string, flags: string, width: number | undefined): string {
  if (width === undefined || text.length >= width) return text;
  if (flags.includes('-')) return text.padEnd(width);
  if (flags.includes('0') && /^[+-]?\d/.test(text)) {
    const sign = /^[+-]/.test(text) ? (text[0] ?? '') : '';
    return sign + text.slice(sign.length).padStart(width - sign.length, '0');
  }
  return text.padStart(width);
}

function convert(
  conv: string,
  flags: string,
  width: number | undefined,
  precision: number | undefined,
  arg: string | undefined,
  errors: string[],
): { text: string; stop?: boolean } {
  switch (conv) {
    case 's': {
      const s = arg ?? '';
      return { text: pad(precision !== undefined ? s.slice(0, precision) : s, flags, width) };
    }
    case 'b': {
      const r = interpretEscapes(arg ?? '');
      return { text: pad(r.text, flags, width), stop: r.stop };
    }
    case 'c':
      return { text: pad((arg ?? '').slice(0, 1), flags, width) };
    case 'd':
    case 'i':
    case 'u': {
      const n = Math.trunc(numberArg(arg, errors));
      const sign = n >= 0 && flags.includes('+') ? '+' : n >= 0 && flags.includes(' ') ? ' ' : '';
      return { text: pad(sign + String(n), flags, width) };
    }
    case 'x':
    case 'X':
    case 'o': {
      const n = Math.trunc(numberArg(arg, errors));
      const s = (n >>> 0).toString(conv === 'o' ? 8 : 16);
      return { text: pad(conv === 'X' ? s.toUpperCase() : s, flags, width) };
    }
    default: {
      const n = numberArg(arg, errors);
      const digits = precision ?? 6;
      const s =
        conv === 'f'
          ? n.toFixed(digits)
          : conv === 'e' || conv === 'E'
            ? n.toExponential(digits).replace(/e([+-])(\d)$/, 'e$10$2')
            : String(Number(n.toPrecision(digits === 0 ? 1 : digits)));
      return { text: pad(conv === 'E' ? s.toUpperCase() : s, flags, width) };
    }
  }
}

/** The text `printf format args…` writes, and any conversion errors (printed by the caller). */
export function formatPrintf(format: string, args: readonly string[]): { text: string; errors: string[] } {
  const errors: string[] = [];
  const spec = /%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?([sbcdiuxXofeEgG%])/g;
  let out = '';
  let next = 0;
  do {
    let consumed = false;
    let stopped = false;
    let last = 0;
    for (const m of format.matchAll(spec)) {
      const literal = interpretEscapes(format.slice(last, m.index));
      out += literal.text;
      last = m.index + m[0].length;
      if (literal.stop) {
        stopped = true;
        break;
      }
      const [, flags = '', w, p, conv] = m;
      if (conv === '%') {
        out += '%';
        continue;
      }
      const width = w === '*' ? numberArg(args[next++], errors) : w !== undefined ? Number(w) : undefined;
      const precision = p === '*' ? numberArg(args[next++], errors) : p !== undefined ? Number(p) : undefined;
      consumed = true;
      const converted = convert(conv ?? 's', flags, width, precision, args[next++], errors);
      out += converted.text;
      if (converted.stop) {
        stopped = true;
        break;
      }
    }
    if (stopped) break;
    const tail = interpretEscapes(format.slice(last));
    out += tail.text;
    if (tail.stop || !consumed) break;
  } while (next < args.length);
  return { text: out, errors };
}

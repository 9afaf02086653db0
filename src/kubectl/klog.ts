/**
 * klog's text header, which kubectl's `-v` lines carry:
 * `I1205 09:19:46.412162   10746 loader.go:373] message`.
 */

export function klogLine(now: Date, pid: number, source: string, text: string): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const micros = String(now.getMilliseconds() * 1000).padStart(6, '0');
  const stamp = `${two(now.getMonth() + 1)}${two(now.getDate())} ${two(now.getHours())}:${two(now.getMinutes())}:${two(now.getSeconds())}.${micros}`;
  return `I${stamp} ${String(pid).padStart(7, ' ')} ${source}] ${text}\n`;
}

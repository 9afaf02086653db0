/**
 * One klog header line as the real kube-apiserver writes it to standard
 * error (`E1127 12:34:56.789012   12345 run.go:74] "command failed" err="..."`),
 * for the start-up failures it reports through its logger rather than as a
 * flag error.
 */

/** Go's %q for the error text (JSON's escaping agrees for the texts the server prints). */
function goQuote(text: string): string {
  return JSON.stringify(text);
}

export function klogCommandFailed(message: string, now = new Date(), pid = process.pid): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const micros = String(now.getMilliseconds() * 1000).padStart(6, '0');
  const stamp = `${two(now.getMonth() + 1)}${two(now.getDate())} ${two(now.getHours())}:${two(now.getMinutes())}:${two(now.getSeconds())}.${micros}`;
  return `E${stamp} ${String(pid).padStart(7)} run.go:74] "command failed" err=${goQuote(message)}\n`;
}

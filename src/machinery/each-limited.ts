/**
 * Runs a task per item with at most `width` in flight, so that independent
 * writes (the bootstrap policy's hundred-odd objects) reach the store
 * together and can share its transactions, without flooding it. Every task
 * runs even when one fails; the first failure is thrown once all settled.
 */

export async function eachLimited<T>(
  items: readonly T[],
  width: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      try {
        await task(item);
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
  if (failures.length > 0) throw failures[0];
}

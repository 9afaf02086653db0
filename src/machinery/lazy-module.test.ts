import { describe, expect, it } from 'vitest';
import { StatusError } from './errors';
import { LazyModule } from './lazy-module';

describe('LazyModule', () => {
  it('imports once however many callers load it, and then serves get() synchronously', async () => {
    let imports = 0;
    const mod = new LazyModule('probe', () => Promise.resolve({ n: ++imports }));
    expect(mod.loaded).toBe(false);
    expect(() => mod.get()).toThrow(/used before it was loaded/);
    const [a, b] = await Promise.all([mod.load(), mod.load()]);
    expect(a).toBe(b);
    expect(imports).toBe(1);
    expect(mod.loaded).toBe(true);
    expect(mod.get()).toBe(a);
  });

  it('turns a failed load into a 503 the next call retries', async () => {
    let attempt = 0;
    const mod = new LazyModule('flaky', () =>
      ++attempt === 1 ? Promise.reject(new Error('offline')) : Promise.resolve({ ok: true }),
    );
    const failure = await mod.load().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StatusError);
    expect(failure).toMatchObject({ code: 503, reason: 'ServiceUnavailable' });
    expect((failure as Error).message).toBe('loading the flaky library failed: offline');
    await expect(mod.load()).resolves.toEqual({ ok: true });
  });

  it('builtOnFirstUse loads nothing until called, then builds once and keeps it', async () => {
    let imports = 0;
    let builds = 0;
    const mod = new LazyModule('handlers', () => Promise.resolve({ id: ++imports }));
    const handler = mod.builtOnFirstUse((m) => ({ from: m.id, build: ++builds }));
    expect(imports).toBe(0);
    const [first, second] = await Promise.all([handler(), handler()]);
    expect(first).toBe(second);
    expect(await handler()).toBe(first);
    expect({ imports, builds }).toEqual({ imports: 1, builds: 1 });
  });

  it('builtOnFirstUse tries a failed build again on the next call', async () => {
    let builds = 0;
    const mod = new LazyModule('fragile', () => Promise.resolve({}));
    const handler = mod.builtOnFirstUse(() => {
      if (++builds === 1) throw new Error('first build fails');
      return { build: builds };
    });
    await expect(handler()).rejects.toThrow('first build fails');
    await expect(handler()).resolves.toEqual({ build: 2 });
    expect(await handler()).toEqual({ build: 2 });
  });
});

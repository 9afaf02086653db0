import { describe, expect, it, vi } from 'vitest';
import { servedBy, uncontrolled, untilServed, whenServed } from './served';

/** A service worker container whose controller the test sets, announcing each change as the browser does. */
class FakeContainer extends EventTarget {
  controller: { scriptURL: string } | null = null;
  control(scriptURL: string): void {
    this.controller = { scriptURL };
    this.dispatchEvent(new Event('controllerchange'));
  }
  get workers(): ServiceWorkerContainer {
    return this as unknown as ServiceWorkerContainer;
  }
}

const orch = () => 'orch';
const kubernetes = () => 'kubernetes';
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('servedBy / uncontrolled', () => {
  it('names the profile from the controller script URL, orch without one', () => {
    const page = new FakeContainer();
    expect(servedBy('orch', page.workers)).toBe(false);
    expect(uncontrolled(page.workers)).toBe(true);
    page.control('http://localhost/sw.js');
    expect(servedBy('orch', page.workers)).toBe(true);
    expect(servedBy('kubernetes', page.workers)).toBe(false);
    expect(uncontrolled(page.workers)).toBe(false);
    page.control('http://localhost/sw.js?profile=kubernetes');
    expect(servedBy('kubernetes', page.workers)).toBe(true);
  });

  it('a page without service workers is neither served nor waiting for a worker', () => {
    expect(servedBy('orch', undefined)).toBe(false);
    expect(uncontrolled(undefined)).toBe(false);
  });
});

describe('whenServed', () => {
  it('sends at once when the profile worker serves the page, or when there are no service workers', async () => {
    const page = new FakeContainer();
    page.control('http://localhost/sw.js');
    expect(untilServed(page.workers, orch)).toBeUndefined();
    expect(untilServed(undefined, orch)).toBeUndefined();
    const send = vi.fn(() => Promise.resolve('answer'));
    const answer = whenServed(send, page.workers, orch);
    expect(send).toHaveBeenCalledTimes(1);
    await expect(answer).resolves.toBe('answer');
  });

  it('holds requests of a first visit until the worker takes control, then sends each once', async () => {
    const page = new FakeContainer();
    const send = vi.fn(() => Promise.resolve('answer'));
    const first = whenServed(send, page.workers, orch);
    const second = whenServed(send, page.workers, orch);
    await settle();
    expect(send).not.toHaveBeenCalled();
    page.control('http://localhost/sw.js');
    await expect(Promise.all([first, second])).resolves.toEqual(['answer', 'answer']);
    expect(send).toHaveBeenCalledTimes(2);
    // Served now: later requests go out at once.
    void whenServed(send, page.workers, orch);
    expect(send).toHaveBeenCalledTimes(3);
  });

  it("holds through another profile's worker (a profile switch) until the chosen profile's takes over", async () => {
    const page = new FakeContainer();
    page.control('http://localhost/sw.js');
    const send = vi.fn(() => Promise.resolve('answer'));
    const answer = whenServed(send, page.workers, kubernetes);
    page.control('http://localhost/sw.js');
    await settle();
    expect(send).not.toHaveBeenCalled();
    page.control('http://localhost/sw.js?profile=kubernetes');
    await expect(answer).resolves.toBe('answer');
    expect(send).toHaveBeenCalledTimes(1);
  });
});

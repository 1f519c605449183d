import { describe, expect, it } from 'vitest';
import { CallSignal, SignalFollowers, webSignalOf } from '../../src/gateway/upstream/call-signal.ts';

describe('call signal', () => {
  it('calls each abort listener once, in order, and none removed or added after the abort', () => {
    const signal = new CallSignal();
    const heard: string[] = [];
    const removed = () => heard.push('removed');
    signal.once('abort', () => heard.push('first'));
    signal.on('abort', removed);
    signal.on('abort', () => heard.push('second'));
    signal.on('other', () => heard.push('other'));
    signal.removeListener('abort', removed);
    const reason = new Error('budget spent');
    signal.abort(reason);
    signal.abort(new Error('again'));
    signal.on('abort', () => heard.push('late'));
    expect(heard).toEqual(['first', 'second']);
    expect([signal.aborted, signal.reason]).toEqual([true, reason]);
  });

  it('is a web AbortSignal for fetches that take only those, aborted before or after', () => {
    const before = new CallSignal();
    before.abort('gone');
    expect([webSignalOf(before)?.aborted, webSignalOf(before)?.reason]).toEqual([true, 'gone']);
    const after = new CallSignal();
    const web = webSignalOf(after)!;
    expect(web).toBe(after.toAbortSignal());
    expect(web.aborted).toBe(false);
    after.abort('gone');
    expect([web.aborted, web.reason]).toEqual([true, 'gone']);
    const plain = new AbortController().signal;
    expect(webSignalOf(plain)).toBe(plain);
    expect(webSignalOf(undefined)).toBeUndefined();
  });

  it('follows a web signal for many calls with one listener: the calls still following abort with its reason, the others not', () => {
    const controller = new AbortController();
    const web = controller.signal;
    let listenersAdded = 0;
    const addEventListener = web.addEventListener.bind(web);
    web.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
      listenersAdded += 1;
      addEventListener(...args);
    }) as AbortSignal['addEventListener'];
    const followers = new SignalFollowers();
    const calls = Array.from({ length: 5 }, () => new CallSignal());
    for (const call of calls) followers.follow(call, web);
    followers.unfollow(calls[1], web);
    expect(listenersAdded).toBe(1);
    const reason = new Error('engine disposed');
    controller.abort(reason);
    expect(calls.map((call) => call.aborted)).toEqual([true, false, true, true, true]);
    expect(calls[0].reason).toBe(reason);
    // A call that follows it once it has aborted aborts at once.
    const late = new CallSignal();
    followers.follow(late, web);
    expect([late.aborted, late.reason]).toEqual([true, reason]);
  });
});

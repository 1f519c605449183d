import type { GraphQLError } from 'graphql';
import { ErrorCode, UpstreamError, createGraphQLErrorWithCode, upstreamErrorIn } from '../errors.ts';
import { withStoreTimeout } from '../../shared/with-timeout.ts';
import { createCallGate, isBudgetError, requestKeyOf, type CallGate } from './translation-call-gate.ts';
import { translationCacheKey, type TranslationCache, type TranslationKey } from './translation-cache.ts';
import { isUnusableAnswer, type TextFormat, type TranslatedText } from './translation-client.ts';
import { upstreamCauseOf } from '../upstream/upstream-errors.ts';
import { createLimitLearner, createServiceLimits, everyCallRefused, limitNamedIn, type CallCaps, type CallShape, type LimitLearner, type ServiceLimits } from './translation-limits.ts';
import { characters, joinParts, splitText } from './text-parts.ts';
import { createFailingTexts, type FailingTexts } from './failing-texts.ts';

/** One failure, shared by every text it stands for. */
export interface BatchFailure {
  error: GraphQLError;
  /**
   * The failure belongs to the request that met it (its call budget ran out, its client went away),
   * not to its texts: a request that joined them sends them again rather than inherit it.
   */
  ownRequest?: boolean;
}

export type TranslationOutcome = { result: TranslatedText } | { failure: BatchFailure };

export interface BatchOptions {
  from: string | null;
  to: string;
  format: TextFormat;
}

/** What the batcher tells about its work, for metrics and tests. */
export interface TranslationServedEvent {
  cached: number;
  joined: number;
  sent: number;
  calls: number;
  /** Texts in each call made (calls of one group's flush). */
  callSizes?: number[];
  /** Calls refused as too large (400) whose texts went out again in smaller calls. */
  splitCalls?: number;
  /** Texts cut into parts to fit the character limit. */
  splitTexts?: number;
  /** Measures whose limit was learned (or lowered) by this flush. */
  learned?: (keyof CallShape)[];
  /** Calls answered 200 with no usable translation (an empty one, or not texts): failed, nothing kept. */
  unusable?: number;
  /** Calls that failed with a 500 and were halved to find the text it was about. */
  narrowedCalls?: number;
  /** Texts the service failed on (500) while it answered others, failed alone (TEXT_NOT_TRANSLATABLE). */
  failingTexts?: number;
  /** Texts failed at once, without a call, as the service failed on them lately. */
  knownFailing?: number;
  /** The service's limits as the gateway knows them now (shared, live), for their values and ages in metrics. */
  limits?: ServiceLimits;
  /**
   * Problem translations reused whole (assembled-translations.ts), whose texts were not looked up
   * one by one. Never set by the batcher: the link's memo reports these, once per tick.
   */
  reused?: number;
}

export interface TranslationBatcherOptions<TContext extends object> {
  cache: TranslationCache;
  /** Most texts in one upstream call (TRANSLATION_BATCH_SIZE): learning never goes above it. */
  batchSize: number;
  /** Most characters in one upstream call, summed over its texts (TRANSLATION_MAX_CHARS_PER_CALL). @default no bound */
  maxCharsPerCall?: number;
  /** Longest text the gateway sends (TRANSLATION_MAX_TEXT_LENGTH), named when the service refuses one. */
  maxTextLength?: number;
  /** Most upstream calls in flight for one request; used when no `gate` is given. */
  concurrency: number;
  /** Every call goes through it: per-request concurrency and call budget. @default a gate of `concurrency` */
  gate?: CallGate;
  /** What the service accepted and refused so far, shared by every request. @default fresh */
  limits?: ServiceLimits;
  /** Texts the service failed on lately, shared by every request. @default fresh */
  failingTexts?: FailingTexts;
  /** Sends one batch upstream; resolves with one result per text, in order, or rejects. */
  send: (context: TContext, texts: string[], options: BatchOptions) => Promise<TranslatedText[]>;
  /** Reads the limits the service publishes into `limits.published`; asked at a flush's first refusal (it reads only when not known). */
  readPublishedLimits?: (context: TContext) => Promise<void>;
  /**
   * A text was refused alone: the error when the cause holds for the whole group (a language the
   * service does not offer), else undefined.
   */
  explainGroup?: (context: TContext, options: BatchOptions, refusal: UpstreamError) => Promise<GraphQLError | undefined>;
  /** Called with how each group's texts were served, for metrics and tests. */
  onServed?: (event: TranslationServedEvent) => void;
}

export interface TranslationBatcher<TContext extends object> {
  /**
   * Queues texts for translation within the current request. Everything queued by the request's
   * resolvers before the event loop turns goes out together: per (from, to, format), equal texts once,
   * cached texts not at all, the rest in the fewest calls the service accepts.
   */
  translate(context: TContext, texts: string[], options: BatchOptions): Promise<TranslationOutcome[]>;
}

/** One translate() call: its texts' outcomes, filled in as each is known; it resolves with the last. */
interface PendingCall {
  outcomes: TranslationOutcome[];
  remaining: number;
  resolve(outcomes: TranslationOutcome[]): void;
}

interface Group {
  options: BatchOptions;
  /**
   * Each distinct text, with where its outcome goes: pairs of a waiting call and the text's
   * position in it, kept flat (call, position, call, position…). A promise and a closure per text
   * of every call, joined by Promise.all, were the warm page's largest allocation.
   */
  waiters: Map<string, (PendingCall | number)[]>;
}

/** Gives every call waiting for a text its outcome (a position already settled stays as it was). */
function settleWaiters(waiting: (PendingCall | number)[] | undefined, outcome: TranslationOutcome): void {
  if (!waiting) return;
  for (let pair = 0; pair < waiting.length; pair += 2) {
    const call = waiting[pair] as PendingCall;
    const position = waiting[pair + 1] as number;
    if (call.outcomes[position] !== undefined) continue;
    call.outcomes[position] = outcome;
    call.remaining -= 1;
    if (call.remaining === 0) call.resolve(call.outcomes);
  }
}

/** One whole text of the request; its parts, if cut, answer to it. */
interface Root {
  text: string;
  outcome?: TranslationOutcome;
}

/** What goes into a call: a whole text or a part of one. */
interface Item {
  root: Root;
  text: string;
  chars: number;
  done(result: TranslatedText): void;
  fail(failure: BatchFailure): void;
}

export function createTranslationBatcher<TContext extends object>({
  cache,
  batchSize,
  maxCharsPerCall,
  maxTextLength,
  concurrency,
  gate = createCallGate({ concurrency }),
  limits = createServiceLimits(),
  failingTexts = createFailingTexts(),
  send,
  readPublishedLimits,
  explainGroup,
  onServed,
}: TranslationBatcherOptions<TContext>): TranslationBatcher<TContext> {
  // Texts being translated right now, by cache key, across requests: a second request asking for the
  // same text joins the call already on its way instead of sending another, and shares its outcome.
  const inFlight = new Map<string, Promise<TranslationOutcome>>();
  const queued = new WeakMap<TContext, Map<string, Group>>();
  const failedRequests = new WeakMap<object, BatchFailure>();
  // One read at a time for the gateway; asked again once it settled, since the published limit expires too.
  let reading: Promise<void> | undefined;
  const readPublished = (context: TContext): Promise<void> | undefined => {
    if (!reading && readPublishedLimits) {
      reading = readPublishedLimits(context)
        .catch(() => undefined)
        .finally(() => {
          reading = undefined;
        });
    }
    return reading;
  };

  async function flush(context: TContext, groups: Map<string, Group>): Promise<void> {
    queued.delete(context);
    await Promise.all([...groups.values()].map((group) => runGroup(context, group)));
  }

  async function runGroup(context: TContext, { options, waiters }: Group): Promise<void> {
    const texts = [...waiters.keys()];
    const keys: TranslationKey[] = texts.map((text) => ({ ...options, text }));
    // A cache that cannot answer (fails, throws, or is slow) is a cache miss, never a failed translation.
    const cached = await withStoreTimeout(cache, () => cache.getMany(keys), CACHE_TIMEOUT_MS).catch(() => keys.map(() => undefined));
    const deliver = (text: string, outcome: TranslationOutcome) => settleWaiters(waiters.get(text), outcome);
    const misses: number[] = [];
    const joins: Promise<number | undefined>[] = [];
    let knownFailing = 0;
    texts.forEach((text, index) => {
      const hit = cached[index];
      if (hit) return deliver(text, { result: hit });
      if (failingTexts.has(translationCacheKey(keys[index]))) {
        knownFailing += 1;
        return deliver(text, { failure: { error: knownNotTranslatable(text, failingTexts.ttlMs) } });
      }
      const pending = inFlight.get(translationCacheKey(keys[index]));
      if (!pending) return void misses.push(index);
      // A failure is the text's own (a 400 is narrowed down to the text it is about) or the
      // service's (down, slow, key refused), so it holds for this request too; only one that belongs
      // to the other request sends the text again, in one batch with the others like it.
      joins.push(pending.then((outcome) => (('failure' in outcome && outcome.failure.ownRequest) ? index : void deliver(text, outcome))));
    });
    const stats: SendStats = { calls: [], splitCalls: 0, splitTexts: 0, unusable: 0, narrowedCalls: 0, failingTexts: 0 };
    const learner = createLimitLearner<Root>(limits, { maxTexts: batchSize, maxChars: maxCharsPerCall });
    const sendRoots = async (indexes: number[], share: boolean) => {
      const roots = indexes.map((index): Root => ({ text: texts[index] }));
      const settled = sendAll(context, options, roots, learner, stats).then(() => roots.map((root) => root.outcome!));
      const cacheKeys = indexes.map((index) => translationCacheKey(keys[index]));
      if (share) cacheKeys.forEach((key, position) => inFlight.set(key, settled.then((all) => all[position])));
      const outcomes = await settled;
      const fresh = outcomes.flatMap((outcome, position): [TranslationKey, TranslatedText][] =>
        'result' in outcome ? [[keys[indexes[position]], outcome.result]] : [],
      );
      if (fresh.length > 0) await withStoreTimeout(cache, () => cache.setMany(fresh), CACHE_TIMEOUT_MS).catch(() => undefined);
      if (share) for (const key of cacheKeys) inFlight.delete(key);
      return outcomes.map((outcome, position) => [texts[indexes[position]], outcome] as const);
    };
    const delivered = await Promise.all([
      sendRoots(misses, true),
      Promise.all(joins).then((again) => {
        const resend = again.filter((index): index is number => index !== undefined);
        return resend.length > 0 ? sendRoots(resend, false) : [];
      }),
    ]);
    const learned = learner.commit();
    try {
      onServed?.({
        cached: texts.length - misses.length - joins.length - knownFailing,
        joined: joins.length,
        sent: misses.length,
        calls: stats.calls.length,
        callSizes: stats.calls,
        splitCalls: stats.splitCalls,
        splitTexts: stats.splitTexts,
        learned,
        unusable: stats.unusable,
        narrowedCalls: stats.narrowedCalls,
        failingTexts: stats.failingTexts,
        knownFailing,
        limits,
      });
    } catch {
      // Metrics must never cost a translation.
    }
    for (const [text, outcome] of delivered.flat()) deliver(text, outcome);
  }

  /**
   * Sends `roots` in calls sized by what the service is known to accept. While its limits are being
   * learned, one call goes at a time, so each refusal resizes the rest before they go; once the sizes
   * are known to pass (or nothing was ever refused), the calls go together.
   */
  async function sendAll(context: TContext, options: BatchOptions, roots: Root[], learner: LimitLearner<Root>, stats: SendStats) {
    const calls = gate.of(context);
    const request = requestKeyOf(context);
    // A cause that holds for every text of the group (a language), or of the request (the service failed).
    let groupFailure: BatchFailure | undefined;
    let queue: Item[] = roots.map((root) => wholeItem(root));
    const split = new Set<Root>();
    const shape = (items: Item[]): CallShape => ({
      texts: items.length,
      chars: items.reduce((sum, item) => sum + item.chars, 0),
      longest: items.reduce((max, item) => Math.max(max, item.chars), 0),
    });
    let explained = false;
    let published: Promise<void> | undefined;

    while (queue.length > 0) {
      queue = queue.filter((item) => !item.root.outcome);
      const failure = groupFailure ?? failedRequests.get(request);
      if (failure) {
        for (const item of queue) item.fail(failure);
        break;
      }
      const caps = learner.caps();
      queue = queue.flatMap((item) => {
        if (item.chars <= caps.longest) return [item];
        const parts = splitItem(item, caps.longest, options.format);
        if (!parts) {
          // Refused only when the service is known to refuse that length; else it goes alone, to see.
          if (item.chars > caps.refusedAbove) item.fail({ error: caps.refusedAboveProven ? tooLong(item.root, caps) : everyCallRefused() });
          return item.chars > caps.refusedAbove ? [] : [item];
        }
        if (!split.has(item.root)) {
          split.add(item.root);
          stats.splitTexts += 1;
        }
        return parts;
      });
      if (queue.length === 0) break;
      const bins = pack(queue, caps);
      const together = !caps.limited || bins.every((bin) => learner.knownToFit(shape(bin)));
      const round = together ? bins : bins.slice(0, 1);
      const back: Item[] = [];
      const refused: { bin: Item[]; error: UpstreamError }[] = [];
      /** Fails `bin` with what its call met; the service's own failure is the request's too. */
      const failBin = (bin: Item[], error: unknown) => {
        const failure: BatchFailure = isBudgetError(error)
          ? { error: error as GraphQLError, ownRequest: true }
          : { error: upstreamErrorIn(error) ?? asUpstreamError(error), ownRequest: clientGone(context) };
        for (const item of bin) item.fail(failure);
        // The service itself failed (down, slow, key refused, over its rate): the request's texts
        // not sent yet, in any group, would fare the same, so they share this failure instead of
        // each paying for it.
        // (A spent call budget refuses the request's later calls by itself, and lets those admitted run.)
        if (!failure.ownRequest && !failedRequests.has(request)) failedRequests.set(request, failure);
      };
      /** The text the service fails on while it answers others: failed alone, and not sent again for a while. */
      const textFails = (item: Item, cause: UpstreamError) => {
        stats.failingTexts += 1;
        failingTexts.remember(translationCacheKey({ ...options, text: item.root.text }));
        item.fail({ error: notTranslatable(item, cause, failingTexts.ttlMs) });
      };
      /**
       * Sends one call; resolves with the error when it failed as a text can make a call fail (a 500:
       * left to the caller to narrow), after settling every other outcome itself.
       */
      const sendBin = async (bin: Item[]): Promise<UpstreamError | undefined> => {
        const texts = bin.map((item) => item.text);
        try {
          const results = await calls.run(() => {
            // Waiting for its turn, the call may have become pointless: another failed for good.
            const failed = failedRequests.get(request);
            if (failed) return Promise.reject(new SkippedCall(failed));
            stats.calls.push(texts.length);
            return send(context, texts, options);
          });
          failingTexts.answered();
          learner.accepted(shape(bin));
          bin.forEach((item, index) => item.done(results[index]));
        } catch (error) {
          if (error instanceof SkippedCall) {
            for (const item of bin) item.fail(error.failure);
            return undefined;
          }
          const upstream = upstreamErrorIn(error);
          if (isUnusableAnswer(upstream)) stats.unusable += 1;
          if (upstream && isRefusal(upstream)) {
            refused.push({ bin, error: upstream });
            back.push(...bin);
            return undefined;
          }
          if (upstream && mayBeTheTexts(upstream) && !clientGone(context)) return upstream;
          failBin(bin, error);
        }
        return undefined;
      };
      /**
       * Narrows a call that failed with a 500 down to the text that fails, halving it: a half the
       * service answers shows it works, so the other half's failure is its texts'. Both halves
       * failing is the service's failure (or texts in both: they share it), which bounds the extra
       * calls to two per halving. `proven`: the service answered another call lately.
       */
      const narrow = async (bin: Item[], error: UpstreamError, proven: boolean): Promise<void> => {
        if (bin.length === 1) return proven ? textFails(bin[0], error) : failBin(bin, error);
        stats.narrowedCalls += 1;
        const half = Math.ceil(bin.length / 2);
        const halves = [bin.slice(0, half), bin.slice(half)];
        const errors = await Promise.all(halves.map((part) => sendBin(part)));
        if (errors.every((failed) => failed !== undefined)) return failBin(bin, errors[0]);
        await Promise.all(halves.map((part, index) => errors[index] && narrow(part, errors[index], true)));
      };
      await Promise.all(
        round.map(async (bin) => {
          const error = await sendBin(bin);
          if (error) await narrow(bin, error, failingTexts.answeredLately());
        }),
      );
      for (const { bin, error } of refused) {
        const refusedShape = shape(bin);
        learner.refused(refusedShape, bin.map((item) => item.root));
        const named = limitNamedIn(upstreamCauseOf(error), refusedShape);
        if (named) learner.named(named.measure, named.limit);
        if (bin.length > 1) stats.splitCalls += 1;
        published ??= readPublished(context);
        // First the causes that hold for every text of the group, whatever the call's size.
        if (!explained && explainGroup) {
          explained = true;
          const groupError = await explainGroup(context, options, error).catch(() => undefined);
          if (groupError) {
            learner.forget();
            groupFailure = { error: groupError };
            break;
          }
        }
        const [item] = bin;
        // Refused alone although as long a text passed before: refused for what it says, not its size.
        if (bin.length === 1 && item.chars <= limits.ok.longest) {
          learner.exclude(item.root);
          item.fail({ error: refusedText(item, error, maxTextLength) });
        }
      }
      if (published) await published;
      queue = [...back, ...queue.filter((item) => !round.some((bin) => bin.includes(item)))];
    }
    for (const root of roots) root.outcome ??= { failure: { error: asUpstreamError(new Error('not translated')) } };
  }

  return {
    translate(context, texts, options) {
      let groups = queued.get(context);
      if (!groups) {
        const created = new Map<string, Group>();
        groups = created;
        queued.set(context, created);
        // setImmediate runs after every pending promise job, so all resolvers of this execution step
        // have queued their texts by then.
        setImmediate(() => {
          // Whatever goes wrong in the batcher itself, every waiting resolver gets an answer.
          flush(context, created).catch((error: unknown) => failEveryone(created, error));
        });
      }
      const groupKey = `${options.from ?? 'auto'}:${options.to}:${options.format}`;
      let group = groups.get(groupKey);
      if (!group) {
        group = { options, waiters: new Map() };
        groups.set(groupKey, group);
      }
      const { waiters } = group;
      if (texts.length === 0) return Promise.resolve([]);
      return new Promise<TranslationOutcome[]>((resolve) => {
        const call: PendingCall = { outcomes: new Array<TranslationOutcome>(texts.length), remaining: texts.length, resolve };
        texts.forEach((text, position) => {
          const list = waiters.get(text);
          if (list) list.push(call, position);
          else waiters.set(text, [call, position]);
        });
      });
    },
  };
}

/** What one group's flush did, for its TranslationServedEvent. */
interface SendStats {
  /** Texts in each call made. */
  calls: number[];
  /** Calls that failed with a 500 and were halved to find the text it was about. */
  narrowedCalls: number;
  /** Texts found to fail (500) while the service answers others. */
  failingTexts: number;
  splitCalls: number;
  splitTexts: number;
  unusable: number;
}

/** A call not made, because the request's calls already failed with `failure`. */
class SkippedCall extends Error {
  readonly failure: BatchFailure;

  constructor(failure: BatchFailure) {
    super('skipped');
    this.failure = failure;
  }
}

/** How long the cache may take to answer before the batcher goes on without it. */
const CACHE_TIMEOUT_MS = 250;

function wholeItem(root: Root): Item {
  return {
    root,
    text: root.text,
    chars: characters(root.text),
    done: (result) => {
      root.outcome ??= { result };
    },
    fail: (failure) => {
      root.outcome ??= { failure };
    },
  };
}

/** Cuts an item into parts of at most `maxChars`; their translations, joined, answer for it. */
function splitItem(item: Item, maxChars: number, format: TextFormat): Item[] | undefined {
  const cut = splitText(item.text, maxChars, format);
  if (!cut || cut.parts.length < 2) return undefined;
  const results: TranslatedText[] = [];
  let left = cut.parts.length;
  return cut.parts.map((text, index) => ({
    root: item.root,
    text,
    chars: characters(text),
    done: (result: TranslatedText) => {
      results[index] = result;
      left -= 1;
      if (left === 0) item.done({ text: joinParts(results.map((part) => part.text), cut.separators), detectedLanguage: results[0].detectedLanguage, ...oldestMadeAt(results) });
    },
    fail: item.fail,
  }));
}

/** When the oldest of `parts` was made, when every one says: what a text put together from them was made at. */
export function oldestMadeAt(parts: readonly Pick<TranslatedText, 'madeAt'>[]): { madeAt?: number } {
  let oldest = Infinity;
  for (const { madeAt } of parts) {
    if (madeAt === undefined) return {};
    oldest = Math.min(oldest, madeAt);
  }
  return Number.isFinite(oldest) ? { madeAt: oldest } : {};
}

/**
 * First fit, longest first: the fewest calls within both caps in practice (texts are small next
 * to the character cap), and in the texts' own order when only the count binds.
 */
function pack(items: Item[], caps: CallCaps): Item[][] {
  const bins: { items: Item[]; chars: number }[] = [];
  const order = [...items].sort((a, b) => b.chars - a.chars);
  for (const item of order) {
    const bin = bins.find((candidate) => candidate.items.length < caps.texts && candidate.chars + item.chars <= caps.chars);
    if (bin) {
      bin.items.push(item);
      bin.chars += item.chars;
    } else bins.push({ items: [item], chars: item.chars });
  }
  // Back in queue order inside each call, so a page's texts go in the order they were asked for.
  const position = new Map(items.map((item, index) => [item, index]));
  return bins.map((bin) => bin.items.sort((a, b) => position.get(a)! - position.get(b)!));
}

/**
 * A failure one of the call's texts may have caused: a plain 500, LibreTranslate's answer when its
 * model raises on an input. (502, 503 and 504 come from what stands in front of the model; an
 * unusable 200 is the service's.)
 */
function mayBeTheTexts(error: UpstreamError): boolean {
  return error.code === ErrorCode.UpstreamError && error.extensions.status === 500 && !isUnusableAnswer(error);
}

/** A refusal of the request's content (400, or 413 from a proxy in front): maybe too large, maybe one bad text. */
function isRefusal(error: UpstreamError): boolean {
  return error.code === ErrorCode.UpstreamBadRequest && (error.extensions.status === 400 || error.extensions.status === 413);
}

function clientGone(context: object): boolean {
  return Boolean((context as { request?: { signal?: AbortSignal } }).request?.signal?.aborted);
}

function asUpstreamError(error: unknown): UpstreamError {
  return new UpstreamError('The gateway could not translate these texts.', { code: ErrorCode.UpstreamError, service: 'translation' }, error);
}

function tooLong(root: Root, caps: CallCaps): GraphQLError {
  const limit = caps.refusedAbove;
  const source =
    caps.charsFrom === 'setting' && limit === caps.chars
      ? 'the most the gateway sends in one call (TRANSLATION_MAX_CHARS_PER_CALL)'
      : caps.charsFrom === 'published' && limit === caps.chars
        ? 'the character limit the translation service publishes'
        : 'the longest the translation service accepts, as its refusals show';
  return createGraphQLErrorWithCode(
    `A text of ${characters(root.text)} characters could not be translated: it has a sentence longer than ${limit} characters, ${source}, and the gateway cuts texts only at paragraph and sentence boundaries. Shorten it, or raise the service's limit.`,
    ErrorCode.TextTooLong,
    { service: 'translation', limit },
  );
}

function knownNotTranslatable(text: string, ttlMs: number): GraphQLError {
  return createGraphQLErrorWithCode(
    `The translation service failed on this text of ${characters(text)} characters (HTTP 500) a moment ago while it translated others; the gateway does not send it again for up to ${Math.round(ttlMs / 1000)} s.`,
    ErrorCode.TextNotTranslatable,
    { service: 'translation', status: 500 },
  );
}

function notTranslatable(item: Item, cause: UpstreamError, ttlMs: number): GraphQLError {
  return createGraphQLErrorWithCode(
    `The translation service failed on this text of ${item.chars} characters (HTTP 500) while it translates others; its answer is not passed on. The gateway does not send it again for ${Math.round(ttlMs / 1000)} s.`,
    ErrorCode.TextNotTranslatable,
    { service: 'translation', status: cause.extensions.status ?? 500 },
  );
}

function refusedText(item: Item, cause: UpstreamError, maxTextLength: number | undefined): UpstreamError {
  return new UpstreamError(
    `The translation service refused a text of ${item.chars} characters (HTTP 400), although it offers these languages and accepted longer texts: it refuses this text's content, or its limits went down. Its answer is not passed on. The gateway sends texts of up to ${maxTextLength ?? 'any'} characters (TRANSLATION_MAX_TEXT_LENGTH): if the service limits one text to less, set it to that limit so longer texts are refused before any call.`,
    { code: ErrorCode.UpstreamBadRequest, service: 'translation', status: 400, ...(maxTextLength ? { limit: maxTextLength } : {}) },
    cause,
  );
}

function failEveryone(groups: Map<string, Group>, error: unknown): void {
  const failure = { failure: { error: asUpstreamError(error) } };
  for (const { waiters } of groups.values()) for (const waiting of waiters.values()) settleWaiters(waiting, failure);
}

import type { ServiceName } from '../errors.ts';
import type { UpstreamAnswer } from './upstream-answer.ts';
import {
  hooksOf,
  UPSTREAM_SERVICES,
  type AnswerReader,
  type AttemptPolicy,
  type AttemptWatch,
  type CallHooks,
  type CallTicket,
  type SendUpstream,
  type UpstreamCall,
  type UpstreamStepEntry,
} from './upstream-call.ts';
import { answerOf, plainHeaders } from './upstream-fetch.ts';

/** The depth each hook acts at, outermost first (see CallHooks). */
const DEPTH: Record<keyof CallHooks, number> = { around: 0, enter: 1, settled: 1, read: 2, bound: 3, attempts: 4, attempt: 5 };

/**
 * The steps composed once into one function per service, `steps[0]` outermost and the call's own
 * `network` fetch at the end. Composing happens here, when the list is built, never per call.
 */
export function composeStepsByService(steps: readonly UpstreamStepEntry[]): Record<ServiceName, SendUpstream> {
  return Object.fromEntries(UPSTREAM_SERVICES.map((service) => [service, composeService(steps, service)])) as Record<ServiceName, SendUpstream>;
}

/** The functions of composeStepsByService behind one entry, for callers that carry the service on the call. */
export function composeSteps(steps: readonly UpstreamStepEntry[]): SendUpstream {
  return sendByService(composeStepsByService(steps));
}

/** One entry for functions already composed: each call goes to its service's. */
export function sendByService(chains: Record<ServiceName, SendUpstream>): SendUpstream {
  return (call) => chains[call.service](call);
}

/**
 * One service's steps as one function: the hooks of every step that acts on that service, in list
 * order, checked to go outermost first. The `around` steps (the problems cache) wrap the rest; all
 * the others run inside one call (runCall).
 */
function composeService(steps: readonly UpstreamStepEntry[], service: ServiceName): SendUpstream {
  const hooks: CallHooks[] = [];
  let deepest = 0;
  for (const step of steps) {
    const each = hooksOf(step, service);
    const depths = each ? (Object.keys(each) as (keyof CallHooks)[]).filter((name) => each[name] !== undefined && name in DEPTH).map((name) => DEPTH[name]) : [];
    // A step with no hooks for this service (the breaker turned off) is not in its function at all.
    if (!each || depths.length === 0) continue;
    hooks.push(each);
    const depth = Math.min(...depths);
    if (Math.max(...depths) !== depth) throw new Error(`An upstream step acts at several depths of a call (${depths.join(', ')}): one concern, one depth.`);
    if (depth < deepest) throw new Error(`The upstream steps are out of order for ${service}: a step that acts at depth ${depth} comes after one at depth ${deepest} (outermost first).`);
    deepest = depth;
  }
  const arounds = hooks.filter((each) => each.around);
  const inner = runCall(hooks.filter((each) => !each.around));
  return arounds.reduceRight<SendUpstream>((rest, step) => (call) => step.around!(call, rest), inner);
}

/** What an attempt with no watchers collects: nothing, and no array of its own. */
const NO_WATCHES: AttemptWatch[] = [];

/** The one hook of `name` in `hooks`, if any: a list with two would be ambiguous. */
function single<K extends 'read' | 'attempts'>(hooks: readonly CallHooks[], name: K): CallHooks[K] | undefined {
  const found = hooks.filter((each) => each[name] !== undefined);
  if (found.length > 1) throw new Error(`The upstream steps have ${found.length} steps of one kind (${name}); one at most.`);
  return found[0]?.[name];
}

/** A service's hooks sorted by what they do, once, for callThrough. */
interface ComposedHooks {
  /** The steps that enter or settle a call (depth 1), in list order. */
  enters: readonly CallHooks[];
  reader: AnswerReader | undefined;
  policy: AttemptPolicy | undefined;
  /** The bounds, the one closest to the network first, as in a chain of wrappers. */
  bounds: readonly CallHooks[];
  watchers: readonly CallHooks[];
}

/** The steps inside the `around` ones, as one function: callThrough with their hooks sorted once. */
function runCall(hooks: readonly CallHooks[]): SendUpstream {
  const composed: ComposedHooks = {
    enters: hooks.filter((each) => each.enter || each.settled),
    reader: single(hooks, 'read'),
    policy: single(hooks, 'attempts'),
    bounds: hooks.filter((each) => each.bound).reverse(),
    watchers: hooks.filter((each) => each.attempt),
  };
  return (call) => callThrough(composed, call);
}

/**
 * The call itself, every step's hooks inline: enter, the attempts under their budget (each one
 * watched, sent, its end told), the bound on the final answer, its body read, the outcome read
 * and shaped, then settled. A call makes one promise of its own (this async function's) and
 * awaits the network, the body, and only what a step asks for besides (a retry's wait, a bound's
 * cancel).
 */
async function callThrough({ enters, reader, policy, bounds, watchers }: ComposedHooks, call: UpstreamCall): Promise<UpstreamAnswer> {
  let tickets: (CallTicket | undefined)[] | undefined;
  let entered = 0;
  let singleAttempt = call.singleAttempt === true;
  try {
    for (; entered < enters.length; entered += 1) {
      const ticket = enters[entered].enter?.(call);
      if (ticket === undefined) continue;
      (tickets ??= [])[entered] = ticket;
      if (ticket.singleAttempt) singleAttempt = true;
    }
  } catch (error) {
    settle(enters, call, tickets, entered, undefined, error);
    throw error;
  }
  const budget = policy?.start(call, singleAttempt);
  const signal = budget ? budget.signal : call.init.signal;
  let answer: UpstreamAnswer | undefined;
  try {
    for (let attempt = 0; ; attempt += 1) {
      budget?.check();
      const watches = watchers.length > 0 ? [] : NO_WATCHES;
      let failure: unknown;
      try {
        answer = await send(watchers, call, signal, watches);
        for (const watch of watches) watch.answered(answer.status);
      } catch (error) {
        answer = undefined;
        for (const watch of watches) watch.failed(error, signal);
        if (!budget) throw error;
        budget.failed(error);
        failure = error;
      }
      const delay = budget?.again(attempt, answer);
      if (delay === undefined) {
        if (answer) break;
        throw failure;
      }
      await answer?.discard();
      await budget!.wait(delay);
    }
    for (const each of bounds) {
      const bounded = each.bound!(answer);
      answer = bounded instanceof Promise ? await bounded : bounded;
    }
    if (reader) {
      // Read here, inline: a function of its own for it would be one more promise per call.
      let readError: unknown;
      try {
        await answer.text();
      } catch (error) {
        readError = error ?? new Error('The body could not be read.');
      }
      answer = reader.answered(answer, call, readError);
    }
  } catch (error) {
    budget?.end();
    const failed = reader ? reader.failed(error, call) : error;
    settle(enters, call, tickets, entered, undefined, failed);
    throw failed;
  }
  // The budget stays armed while the body is read, so a body that stalls also times out.
  if (budget) {
    if (reader) budget.end();
    else answer.afterBody(() => budget.end());
  }
  settle(enters, call, tickets, entered, answer, undefined);
  return answer;
}

/** Tells the steps that entered (the first `entered`), innermost first, how the call ended. */
function settle(enters: readonly CallHooks[], call: UpstreamCall, tickets: (CallTicket | undefined)[] | undefined, entered: number, answer: UpstreamAnswer | undefined, error: unknown): void {
  for (let index = entered - 1; index >= 0; index -= 1) enters[index].settled?.(call, tickets?.[index], answer, error);
}

/** One attempt on the wire, its watchers told as it goes (collected in `watches`, told its end by the caller). */
function send(watchers: readonly CallHooks[], call: UpstreamCall, signal: unknown, watches: AttemptWatch[]): Promise<UpstreamAnswer> {
  let headers = call.init.headers as Record<string, string> | undefined;
  if (watchers.length > 0) {
    // The attempt's own copy, which the watchers add their headers to (request id, trace context).
    const own = plainHeaders(call.init.headers as HeadersInit | undefined);
    for (const each of watchers) {
      const watch = each.attempt!(call, own);
      if (watch) watches.push(watch);
    }
    headers = own;
  }
  const init = headers === call.init.headers && signal === call.init.signal ? call.init : { ...call.init, headers, signal: signal as AbortSignal };
  return answerOf(call.network, call.url, init, call.context, call.info);
}

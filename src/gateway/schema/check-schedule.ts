/** Shortest time between two checks a refusal may trigger (shorter when polling is more frequent). */
const DRIFT_GAP_MS = 5000;
/** The longest it grows to while refusals find the schema unchanged (shorter when polling is more frequent). */
const DRIFT_GAP_MAX_MS = 60_000;

export interface CheckSchedule {
  /** Checks now, or joins the check under way; resolves whether the schema served changed. */
  check(): Promise<boolean>;
  /** Checks every `pollMs` from now on (nothing when 0). */
  follow(): void;
  /** A refusal said the schema may have drifted: checks at once, or when the last check is old enough. */
  driftSeen(): void;
  stop(): void;
}

/**
 * When the problems schema is checked: every `pollMs`, and after refusals, no sooner than a gap after
 * the last check began; each drift check that finds nothing new doubles that gap, up to a minute (or
 * the poll interval, when shorter), and one that finds a change sets it back. One check runs at a
 * time: a check asked for while one is under way joins it. `runCheck` makes one check and resolves
 * whether the schema served changed; `checkable` says whether there is anything to check (a schema
 * served that is the service's, the schema not stopped).
 */
export function createCheckSchedule({
  pollMs,
  runCheck,
  checkable,
  now = () => performance.now(),
}: {
  pollMs: number;
  runCheck(): Promise<boolean>;
  checkable(): boolean;
  /** The clock the gap between checks is measured on. @default performance.now */
  now?: () => number;
}): CheckSchedule {
  let pollTimer: NodeJS.Timeout | undefined;
  let driftTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<boolean> | undefined;
  let lastStart = -Infinity;
  const driftGapMaxMs = pollMs > 0 ? Math.min(DRIFT_GAP_MAX_MS, pollMs) : DRIFT_GAP_MAX_MS;
  const driftGapMinMs = Math.min(DRIFT_GAP_MS, driftGapMaxMs);
  let driftGapMs = driftGapMinMs;

  const check = (): Promise<boolean> => {
    if (!checkable()) return Promise.resolve(false);
    if (!running) {
      lastStart = now();
      running = runCheck().finally(() => (running = undefined));
    }
    return running;
  };
  const driftCheck = () =>
    void check().then((changed) => {
      driftGapMs = changed ? driftGapMinMs : Math.min(driftGapMs * 2, driftGapMaxMs);
    });
  const poll = () => {
    pollTimer = setTimeout(() => {
      void check().then(() => {
        if (!stopped) poll();
      });
    }, pollMs);
    pollTimer.unref();
  };
  return {
    check,
    follow() {
      if (pollMs > 0 && !pollTimer && !stopped) poll();
    },
    driftSeen() {
      if (stopped || running || driftTimer) return;
      const wait = lastStart + driftGapMs - now();
      if (wait <= 0) {
        driftCheck();
        return;
      }
      driftTimer = setTimeout(() => {
        driftTimer = undefined;
        driftCheck();
      }, wait);
      driftTimer.unref();
    },
    stop() {
      stopped = true;
      clearTimeout(pollTimer);
      clearTimeout(driftTimer);
    },
  };
}

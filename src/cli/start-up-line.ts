/** Moments of start-up, in milliseconds since the process began (`performance.now()`). */
export interface StartUpMoments {
  /** The gateway's code is loaded and the stand-ins (if any) listen. */
  loadedAt: number;
  /** The schema is built: the gateway can answer. */
  builtAt: number;
  listeningAt: number;
  /** Whether stand-ins were started while the code loaded. */
  standIns: boolean;
}

/**
 * The line the entry prints once it listens: where start-up went, from the process's own start (node,
 * tsx and the entry's own modules included), so an operator sees which phase to look at.
 */
export function startUpLine({ loadedAt, builtAt, listeningAt, standIns }: StartUpMoments): string {
  return (
    `started in ${seconds(listeningAt)}: ${seconds(loadedAt)} loading the code${standIns ? ' and starting the stand-ins' : ''}, ` +
    `${seconds(builtAt - loadedAt)} building the schema, ${seconds(listeningAt - builtAt)} to listen`
  );
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

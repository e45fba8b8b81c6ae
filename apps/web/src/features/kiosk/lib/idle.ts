/**
 * The kiosk's idle reset (issue 29): after `timeoutMs` without a touch or a key, `onIdle`
 * runs once (the kiosk goes back to its welcome screen, everything typed cleared). Each
 * activity starts the count again; `pause` holds it (the waiting screen keeps its own time).
 */
export interface IdleTimer {
  /** A touch, a click, a key: the count starts again. */
  activity(): void;
  pause(): void;
  resume(): void;
  stop(): void;
}

export interface Clock {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: Clock = {
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function createIdleTimer(
  timeoutMs: number,
  onIdle: () => void,
  clock: Clock = realClock,
): IdleTimer {
  let handle: unknown = null;
  let paused = false;
  let stopped = false;
  const clear = () => {
    if (handle !== null) clock.clearTimeout(handle);
    handle = null;
  };
  const arm = () => {
    clear();
    if (paused || stopped) return;
    handle = clock.setTimeout(() => {
      handle = null;
      onIdle();
    }, timeoutMs);
  };
  arm();
  return {
    activity: arm,
    pause() {
      paused = true;
      clear();
    },
    resume() {
      paused = false;
      arm();
    },
    stop() {
      stopped = true;
      clear();
    },
  };
}

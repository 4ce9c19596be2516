// A send may hold hundreds of thousands of recipients (the provider's contract bounds them by the
// body's size alone), and the whole service shares one event loop: the relay checks, renders and
// writes them a slice at a time and lets the loop run between slices.

/** The longest the relay works without letting the event loop run. */
export const SLICE_MS = 15;

export interface Pace {
  /** After each item: lets the loop run once the slice has lasted SLICE_MS. */
  step(): Promise<void> | undefined;
  /** Lets the loop run now. */
  pause(): Promise<void>;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function pace(sliceMs = SLICE_MS): Pace {
  let started = performance.now();
  let count = 0;
  const pause = async () => {
    await nextTurn();
    started = performance.now();
  };
  return {
    // The clock is read every 64 items: an item takes microseconds.
    step: () => ((++count & 63) === 0 && performance.now() - started >= sliceMs ? pause() : undefined),
    pause,
  };
}

// A read that pushes may ask for many times a second, done at most once per gap.
/**
 * Runs `read` at most once per `gapMs`: asked while a read runs or soon after one, it reads once
 * more when the gap is over, however many times it was asked (a burst of pushes becomes a read
 * now and one after it, never one per push, and nothing without a push).
 */
export function throttled(read: () => Promise<void>, gapMs: number): () => void {
  let running = false;
  let wanted = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastStart = -Infinity;
  const start = () => {
    timer = null;
    wanted = false;
    running = true;
    lastStart = Date.now();
    void read()
      .catch(() => undefined)
      .then(() => {
        running = false;
        if (wanted) plan();
      });
  };
  const plan = () => {
    const wait = lastStart + gapMs - Date.now();
    if (wait <= 0) start();
    else timer = setTimeout(start, wait);
  };
  return () => {
    wanted = true;
    if (!running && timer === null) plan();
  };
}

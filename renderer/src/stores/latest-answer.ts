// A preview the core computes while the user types (the composer's quote, the campaign editor's,
// the email composer's preview): asked once the typing settles, and of the questions in flight
// only the latest one's answer is shown, whatever order the answers come back in.

export interface LatestAnswer {
  /**
   * A question now: the one scheduled is no longer needed. Answers whether the question is still
   * the latest, for its answer to be shown or dropped.
   */
  ask(): () => boolean;
  /** A question beside the scheduled one (it still goes): answers of earlier questions are dropped. */
  supersede(): () => boolean;
  /** Asks again (`refresh`) once `waitMs` passed without another call. */
  schedule(): void;
}

/** `refresh` is the store's read; it calls ask() first. */
export function latestAnswer(refresh: () => Promise<unknown>, waitMs: number): LatestAnswer {
  let asked = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const supersede = () => {
    const ask = ++asked;
    return () => ask === asked;
  };
  return {
    ask() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      return supersede();
    },
    supersede,
    schedule() {
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(() => void refresh(), waitMs);
    },
  };
}

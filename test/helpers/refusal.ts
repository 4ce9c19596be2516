// What a core call is refused with, for tests that name the refusal by its reason: the same
// reason the UI translates (errors.reasons.<reason>), or the code when a refusal has none.
import { ServiceError } from '../../electron/service/errors';

function reasonOf(error: unknown): string {
  if (error instanceof ServiceError) return error.reason ?? `code ${error.code}`;
  throw error;
}

/** The reason (or, without one, the code) `run` is refused with; fails the test when it is not. */
export function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return reasonOf(error);
  }
  throw new Error('it was not refused');
}

/** As refusal, for a call that answers a promise. */
export async function refusalOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    return reasonOf(error);
  }
  throw new Error('it was not refused');
}

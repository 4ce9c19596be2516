// Errors from the API as one line for the UI. The service's messages are ready-to-display Persian
// (spec 7); anything else is shown as its message.
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return JSON.stringify(error);
}

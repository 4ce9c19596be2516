// A message's text as it was sent: its own (a personalized or per-receiver text) or else its
// send's shared one. Every read of a message's text, in messaging and in the domains above it,
// names it through this fragment (or, reading the two apart, through messageText below), so the
// rule is written here only.

/** The SQL expression of a message's text, given the aliases of `messages` and `sends` in the query. */
export function messageTextSql(message = 'm', send = 's'): string {
  return `COALESCE(${message}.text, ${send}.text)`;
}

/** The same rule read in code: a message's own text, else its send's (for a row read without the join). */
export function messageText(own: string | null, shared: string): string {
  return own ?? shared;
}

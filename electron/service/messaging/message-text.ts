// A message's text as it was sent: its own (a personalized or per-receiver text) or else its
// send's shared one. Every read of a message's text, in messaging and in the domains above it,
// names it through this fragment, so the rule is written once.

/** The SQL expression of a message's text, given the aliases of `messages` and `sends` in the query. */
export function messageTextSql(message = 'm', send = 's'): string {
  return `COALESCE(${message}.text, ${send}.text)`;
}

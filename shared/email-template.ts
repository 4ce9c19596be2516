// `{{ variable }}` in an email's subject and bodies (spec 4.6; the provider's templating is
// Jinja-like, and plain `{{ name }}` with optional spaces is the part every client uses). One rule
// for the embedded provider that renders each recipient's message and for the composer's preview:
// a recipient's own substitutions override the global ones; a dotted name reads into an object
// (`{{ order.id }}`); a variable without a value renders empty, as Jinja's default does. In an HTML
// body values are escaped (a customer named `<b>` stays text), as Jinja's HTML autoescape does.

export type Substitutions = Record<string, unknown>;

// The name is trimmed after the match (see campaigns/template.ts: `\s*` around a lazy group
// backtracks badly on long runs of spaces).
const VARIABLE = /\{\{([^{}]*)\}\}/g;
const NAME = /^[A-Za-z_\p{L}][\w\p{L}\p{N}]*(?:\.[\w\p{L}\p{N}]+)*$/u;

/** The variables a template uses, each once in order of first use (names as written, trimmed). */
export function templateVariables(template: string): string[] {
  const names = new Set<string>();
  for (const match of template.matchAll(VARIABLE)) {
    const name = match[1]!.trim();
    if (NAME.test(name)) names.add(name);
  }
  return [...names];
}

function lookup(values: Substitutions, name: string): unknown {
  if (Object.hasOwn(values, name)) return values[name];
  let current: unknown = values;
  for (const part of name.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The template with each `{{ name }}` replaced by the recipient's value, else the global one, else
 * nothing. Text that is not a variable (`{{ 1 + 2 }}`, a lone `{{`) is left as written.
 */
export function renderEmailTemplate(
  template: string,
  values: { global?: Substitutions | null; recipient?: Substitutions | null },
  options: { html?: boolean } = {},
): string {
  if (!template.includes('{{')) return template;
  const own = values.recipient ?? {};
  const global = values.global ?? {};
  return template.replace(VARIABLE, (whole, inner: string) => {
    const name = inner.trim();
    if (!NAME.test(name)) return whole;
    const mine = lookup(own, name);
    const value = text(mine !== undefined ? mine : lookup(global, name));
    return options.html ? escapeHtml(value) : value;
  });
}

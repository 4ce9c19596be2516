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
  return compileEmailTemplate(template, options)(values);
}

/**
 * The template read once, rendered for many recipients (the provider renders one message per
 * recipient): its text cut at its variables, so each rendering only looks values up.
 */
export function compileEmailTemplate(
  template: string,
  options: { html?: boolean } = {},
): (values: { global?: Substitutions | null; recipient?: Substitutions | null }) => string {
  if (!template.includes('{{')) return () => template;
  // Even indexes: text as written; odd ones: variable names.
  const parts: string[] = [''];
  let last = 0;
  for (const match of template.matchAll(VARIABLE)) {
    const name = match[1]!.trim();
    if (!NAME.test(name)) continue;
    parts[parts.length - 1] += template.slice(last, match.index);
    parts.push(name, '');
    last = match.index + match[0].length;
  }
  parts[parts.length - 1] += template.slice(last);
  if (parts.length === 1) return () => template;
  return (values) => {
    const own = values.recipient ?? {};
    const global = values.global ?? {};
    let out = parts[0]!;
    for (let i = 1; i < parts.length; i += 2) {
      const mine = lookup(own, parts[i]!);
      const value = text(mine !== undefined ? mine : lookup(global, parts[i]!));
      out += (options.html ? escapeHtml(value) : value) + parts[i + 1]!;
    }
    return out;
  };
}

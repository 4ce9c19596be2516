// The text of a verify/lookup template (API version 1): the placeholders it may hold and how a
// call's tokens fill them. One place for the core's check (messaging/templates.ts), the lookup's
// fill and the Settings preview, so the three never read a text differently.

/** The parameters of verify/lookup a template may name, each as `%` + its name. */
export const TEMPLATE_TOKENS = ['token', 'token2', 'token3', 'token10', 'token20'] as const;
export type TemplateToken = (typeof TEMPLATE_TOKENS)[number];

/** `%token` and what follows it up to the first character that cannot be part of a name. */
const PLACEHOLDER = /%(token[A-Za-z0-9_]*)/g;

/** A template's name: English letters, digits and '-', no spaces or underscore (reference §1.13). */
export const TEMPLATE_NAME = /^[A-Za-z0-9-]{1,50}$/;

function isToken(name: string): name is TemplateToken {
  return (TEMPLATE_TOKENS as readonly string[]).includes(name);
}

/** The placeholders in the text, in order of first appearance (unknown ones included). */
export function placeholdersOf(body: string): string[] {
  const seen: string[] = [];
  for (const match of body.matchAll(PLACEHOLDER)) if (!seen.includes(match[1]!)) seen.push(match[1]!);
  return seen;
}

export type TemplateBodyFault = 'template_body_needs_token' | 'template_placeholder_unknown';

/** Why a text cannot be a template's, or null: it needs `%token`, and `%tokenX` must be a known one. */
export function templateBodyFault(body: string): TemplateBodyFault | null {
  const placeholders = placeholdersOf(body);
  if (placeholders.some((name) => !isToken(name))) return 'template_placeholder_unknown';
  if (body.trim() === '' || !placeholders.includes('token')) return 'template_body_needs_token';
  return null;
}

/**
 * The text with each `%tokenN` replaced by its value; a placeholder without a value is left as it
 * is (the lookup decides whether that is an error).
 */
export function fillTemplate(body: string, values: Partial<Record<TemplateToken, string>>): string {
  return body.replace(PLACEHOLDER, (whole, name: string) => {
    const value = isToken(name) ? values[name] : undefined;
    return value === undefined ? whole : value;
  });
}

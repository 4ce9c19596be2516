// The gateways as the window names them: the provider's name in the UI's language (from the one
// table in shared/gateways.ts), and which of the window's explanations fits a provider's code.
import { GATEWAYS, upstreamErrorClass, type GatewayKind } from '../../../shared/gateways';
import type { Provider } from '../../../shared/status';
import type { Language } from './format';

/** The provider's name inside a sentence ("through Kavenegar", "on the simulator"). */
export function gatewayName(kind: GatewayKind, language: Language): string {
  return GATEWAYS[kind].label[language];
}

/** The name standing alone (a table cell, a select's option): English starts it with a capital. */
export function gatewayTitle(kind: GatewayKind, language: Language): string {
  const name = gatewayName(kind, language);
  return language === 'en' ? name.charAt(0).toUpperCase() + name.slice(1) : name;
}

/** The gateways that can carry a line of this kind (the core refuses the others). */
export function gatewaysFor(provider: Provider): GatewayKind[] {
  return (Object.keys(GATEWAYS) as GatewayKind[]).filter((kind) => GATEWAYS[kind].providers.includes(provider));
}

/**
 * The codes the window explains (what happened, what to do; `gateways.explain.*`): the "pause the
 * line" class one by one, the retryable ones (busy, 5xx) together, and any other (404 or 405 from
 * a wrong address) as a wrong address.
 */
const EXPLAINED = ['401', '403', '407', '416', '418', '501'] as const;
export type Explanation = (typeof EXPLAINED)[number] | 'retry' | 'other';

export function explanationOf(code: number): Explanation {
  const text = String(code);
  if ((EXPLAINED as readonly string[]).includes(text)) return text as Explanation;
  return upstreamErrorClass(code) === 'retry' ? 'retry' : 'other';
}

// Amounts in the unit the person chose: rials (the API's, the ledger's and the exports' unit, and
// the default) or tomans, the everyday unit (1 toman = 10 rials). Amounts are kept in rials
// everywhere; only what is shown and typed is converted, here.
import { formatNumber, type Language } from './format';

export const MONEY_UNITS = ['rials', 'tomans'] as const;
export type MoneyUnit = (typeof MONEY_UNITS)[number];

export function isMoneyUnit(value: unknown): value is MoneyUnit {
  return value === 'rials' || value === 'tomans';
}

/** Rials as an amount in the unit (a toman may have a tenth: 4,505 rials are 450.5 tomans). */
export function inUnit(rials: number, unit: MoneyUnit): number {
  return unit === 'tomans' ? rials / 10 : rials;
}

/** An amount typed in the unit, in rials (whole rials). */
export function toRials(amount: number, unit: MoneyUnit): number {
  return unit === 'tomans' ? Math.round(amount * 10) : amount;
}

/** The number of an amount in the unit, in the language's digits (a toman's tenth when it has one). */
export function formatAmount(rials: number, unit: MoneyUnit, language: Language): string {
  return formatNumber(inUnit(rials, unit), language, unit === 'tomans' ? 1 : 0);
}

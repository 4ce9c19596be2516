// How much money may enter at once and in all. Rials are counted in JavaScript numbers, exact only
// up to 2^53 − 1 (about 9 × 10^15); past it a balance and the sum of its ledger stop agreeing. The
// limits stay far below: a thousand times the largest top-up still fits, and the cost of a large
// send (10,000 receivers × a hundred pages) is a rounding error beside them.

/** The most one top-up or correction may move: 10^13 rials (a thousand billion tomans). */
export const MAX_CREDIT_CHANGE_RIALS = 10_000_000_000_000;
/** The most an account may hold after a top-up: 10^15 rials. Refunds may pass it a little; they only give back what was spent. */
export const MAX_BALANCE_RIALS = 1_000_000_000_000_000;
/** The highest price of one SMS page or one messenger message, in tomans (a typo guard: today's prices are hundreds). */
export const MAX_PRICE_TOMANS = 1_000_000;

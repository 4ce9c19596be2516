// The opt-out phrase of SMS lines (spec 4.1), alone in its module: the one place it is written.
// Everything that adds it (shared/optout.ts) or prices it (shared/pricing.ts) reads it from here,
// which the test of "one place for each rule" relies on (test/api-generations/one-place.test.ts).
export const OPT_OUT_PHRASE = '\nلغو۱۱';

// Prices are refused outside 0 to MAX_PRICE_TOMANS with a reason, never clamped: a −5 typed by
// mistake must not make SMS free while the form says "Saved".
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors';
import { testCores } from '../../../test/helpers/core';
import { MAX_PRICE_TOMANS } from '../../../shared/credit';
import { PricingSchema } from './settings';

const cores = testCores();

describe('pricing', () => {
  it('refuses a negative, absurd or non-number price with its reason, and keeps the stored one', () => {
    const core = cores.open({ seed: false });
    const before = core.settings.setPricing({ sms_page_tomans: 150, messenger_message_tomans: 50 });
    for (const bad of [-5, -0.1, MAX_PRICE_TOMANS + 1, 1e21, Number.NaN, Number.POSITIVE_INFINITY]) {
      let reason: string | undefined;
      try {
        core.settings.setPricing({ ...before, sms_page_tomans: bad });
      } catch (error) {
        reason = (error as ServiceError).reason;
      }
      expect(reason, String(bad)).toBe('price_out_of_range');
    }
    expect(core.settings.pricing()).toEqual(before);
    // Free and the highest price are prices.
    expect(core.settings.setPricing({ sms_page_tomans: 0, messenger_message_tomans: MAX_PRICE_TOMANS })).toEqual({
      sms_page_tomans: 0,
      messenger_message_tomans: MAX_PRICE_TOMANS,
    });
    // The stored shape has the same bounds (seed files are parsed with it).
    expect(PricingSchema.safeParse({ sms_page_tomans: -5, messenger_message_tomans: 1 }).success).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { explanationOf, gatewayName, gatewaysFor, gatewayTitle } from './gateways';

describe('gateways as the window names them', () => {
  it('names each provider in the UI’s language, standing alone with a capital in English', () => {
    expect(gatewayName('kavenegar-v1', 'fa')).toBe('کاوه‌نگار');
    expect(gatewayName('simulator', 'en')).toBe('the simulator');
    expect(gatewayTitle('simulator', 'en')).toBe('The simulator');
    expect(gatewayTitle('simulator', 'fa')).toBe('شبیه‌ساز');
    expect(gatewayTitle('najva-v2', 'en')).toBe('Najva');
  });

  it('offers only the gateways that carry the line’s kind', () => {
    expect(gatewaysFor('sms')).toEqual([
      'simulator',
      'kavenegar-v1',
      'najva-v2',
      'smsir',
      'ippanel-edge',
      'http-gateway',
    ]);
    expect(gatewaysFor('bale')).toEqual(['simulator', 'najva-v2', 'bale-safir']);
    // Nothing to choose: the line's row offers no gateway button.
    expect(gatewaysFor('rubika')).toEqual(['simulator']);
  });

  it('explains the pausing codes one by one, the retryable ones together, any other as a wrong address', () => {
    expect(explanationOf(418)).toBe('418');
    expect(explanationOf(403)).toBe('403');
    expect(explanationOf(416)).toBe('416');
    expect(explanationOf(429)).toBe('retry');
    expect(explanationOf(503)).toBe('retry');
    expect(explanationOf(404)).toBe('other');
    expect(explanationOf(405)).toBe('other');
  });
});

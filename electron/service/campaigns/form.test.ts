import { describe, expect, it } from 'vitest';
import { checkCampaignForm, parseQuietHours, parseRfc3339 } from './form';
import { ServiceError } from '../errors';
import type { CampaignForm } from '../../../shared/campaigns';

const form = (overrides: Partial<CampaignForm> = {}): CampaignForm => ({
  sender: '3000',
  name: 'n',
  template_body: 't',
  send_datetime: '2026-11-27T10:00:00+03:30',
  inclusion_segments: [],
  exclusion_segments: [],
  links: [],
  utm: {},
  ...overrides,
});
const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    if (error instanceof ServiceError) return error.code;
    throw error;
  }
  return null;
};

describe('RFC 3339 send times', () => {
  it.each([
    ['2026-11-27T10:00:00+03:30', Date.UTC(2026, 10, 27, 6, 30)],
    ['2026-11-27T06:30:00Z', Date.UTC(2026, 10, 27, 6, 30)],
    ['2026-11-27T06:30:00.250Z', Date.UTC(2026, 10, 27, 6, 30, 0, 250)],
    ['2024-02-29T00:00:00-01:00', Date.UTC(2024, 1, 29, 1)],
    ['2026-11-27t06:30:00z', Date.UTC(2026, 10, 27, 6, 30)],
  ])('%s', (text, ms) => expect(parseRfc3339(text)).toBe(ms));

  it.each([
    'tomorrow',
    '2026-13-01T10:00:00Z',
    '2026-02-30T10:00:00Z',
    '2025-02-29T10:00:00Z',
    '2026-11-27T24:00:00Z',
    '2026-11-27T10:60:00Z',
    '2026-11-27T10:00:60Z',
    '2026-11-27 10:00:00Z',
    '2026-11-27T10:00:00',
    '2026-11-27T10:00:00+0330',
    '2026-11-27',
    '',
  ])('%j is refused', (text) => expect(parseRfc3339(text)).toBeNull());
});

describe('the form', () => {
  it('needs sender, name, template_body and send_datetime (400), then a good date (417)', () => {
    expect(codeOf(() => checkCampaignForm(form({ sender: undefined })))).toBe(400);
    expect(codeOf(() => checkCampaignForm(form({ name: '  ' })))).toBe(400);
    expect(codeOf(() => checkCampaignForm(form({ template_body: undefined })))).toBe(400);
    expect(codeOf(() => checkCampaignForm(form({ send_datetime: undefined })))).toBe(400);
    expect(codeOf(() => checkCampaignForm(form({ send_datetime: 'soon' })))).toBe(417);
    // template_body is passed on unchanged, empty included.
    expect(checkCampaignForm(form({ template_body: '' })).template_body).toBe('');
  });

  it('takes integer segment ids only, each once', () => {
    expect(checkCampaignForm(form({ inclusion_segments: ['1', ' 2 ', '1'] })).include).toEqual([1, 2]);
    for (const bad of ['1.5', 'a', '', '1e3'])
      expect(codeOf(() => checkCampaignForm(form({ exclusion_segments: [bad] })))).toBe(400);
  });

  it('orders links by index, 10 at most, each with an address; has_utm only when exactly "true"', () => {
    const links = checkCampaignForm(
      form({
        links: [
          { index: 5, actual_url: 'https://b' },
          { index: 0, actual_url: 'https://a', has_utm: 'true' },
          { index: 5, has_utm: 'TRUE' },
        ],
      }),
    ).links;
    expect(links).toEqual([
      { idx: 0, actual_url: 'https://a', has_utm: true },
      { idx: 1, actual_url: 'https://b', has_utm: false },
    ]);
    const many = (n: number) => Array.from({ length: n }, (_, index) => ({ index, actual_url: `https://x/${index}` }));
    expect(checkCampaignForm(form({ links: many(10) })).links).toHaveLength(10);
    expect(codeOf(() => checkCampaignForm(form({ links: many(11) })))).toBe(400);
    expect(codeOf(() => checkCampaignForm(form({ links: [{ index: 0, has_utm: 'true' }] })))).toBe(400);
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'ftp://shop.ir/a'])
      expect(codeOf(() => checkCampaignForm(form({ links: [{ index: 0, actual_url: bad }] })))).toBe(400);
    for (const good of ['shop.ir/a', 'shop.ir:8080/a', 'HTTPS://shop.ir'])
      expect(checkCampaignForm(form({ links: [{ index: 0, actual_url: good }] })).links).toHaveLength(1);
  });

  it('defaults the UTM values', () => {
    expect(checkCampaignForm(form()).utm).toEqual({ source: 'chapar', medium: 'sms', campaign: '{id}' });
  });

  it('reads the rate and quiet hours extensions', () => {
    expect(checkCampaignForm(form({ send_rate: '600', quiet_hours: '22:00-08:00' }))).toMatchObject({
      sendRate: 600,
      quietHours: { start: 1320, end: 480 },
    });
    expect(checkCampaignForm(form({ send_rate: '۶۰۰', quiet_hours: '۲۲:۰۰-۰۸:۰۰' }))).toMatchObject({
      sendRate: 600,
      quietHours: { start: 1320, end: 480 },
    });
    for (const bad of ['0', '-1', '1.5', 'fast'])
      expect(codeOf(() => checkCampaignForm(form({ send_rate: bad })))).toBe(400);
    for (const bad of ['22-08', '25:00-08:00', '08:00-08:00', '8:60-9:00'])
      expect(codeOf(() => parseQuietHours(bad))).toBe(400);
  });
});

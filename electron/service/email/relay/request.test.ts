import { describe, expect, it } from 'vitest';
import { DEFAULT_EXPIRY_MS, idempotencyKeyProblem, parseSendRequest } from './request';

const NOW = Date.UTC(2026, 0, 1, 9);
const body = (extra: Record<string, unknown> = {}) => ({
  from: { email: ' shop@acme.example ' },
  recipients: [{ email: 'a@example.com' }],
  subject: 'Hi',
  text_content: 'Hello',
  ...extra,
});

describe('parseSendRequest', () => {
  it('accepts a minimal body: addresses trimmed, now as first attempt, expiry a day later', async () => {
    const parsed = await parseSendRequest(body(), NOW);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.request.from.email).toBe('shop@acme.example');
    expect(parsed.request).toMatchObject({ firstAttempt: NOW, expires: NOW + DEFAULT_EXPIRY_MS, scheduled: false });
  });

  it('schedules a future first_attempt and keeps an explicit expiry', async () => {
    const parsed = await parseSendRequest(
      body({ schedule: { first_attempt: '2026-01-01T10:00:00Z', expires: '2026-01-01T12:00:00+01:00' } }),
      NOW,
    );
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.request).toMatchObject({
      firstAttempt: Date.UTC(2026, 0, 1, 10),
      expires: Date.UTC(2026, 0, 1, 11),
      scheduled: true,
    });
  });

  it('names the field that is wrong', async () => {
    const message = async (input: unknown) => {
      const parsed = await parseSendRequest(input, NOW);
      return parsed.ok ? null : parsed.message;
    };
    expect(await message(null)).toMatch(/body is required/);
    expect(await message(7)).toMatch(/JSON object/);
    expect(await message(body({ recipients: [{ email: 'a@example.com' }, { name: 'x' }] }))).toBe(
      'recipients[1].email is required',
    );
    expect(await message(body({ headers: { 'Message-ID': '<x@y>' } }))).toMatch(/^headers\.Message-ID may not be set/);
    expect(await message(body({ text_content: null }))).toMatch(/text_content or html_content is required/);
    expect(await message(body({ html_content: '<p>x</p>', text_content: null }))).toBeNull();
  });
});

describe('idempotencyKeyProblem', () => {
  it('takes 1..255 characters', async () => {
    expect(idempotencyKeyProblem('a')).toBeNull();
    expect(idempotencyKeyProblem('a'.repeat(255))).toBeNull();
    expect(idempotencyKeyProblem('')).toMatch(/empty/);
    expect(idempotencyKeyProblem('a'.repeat(256))).toMatch(/255/);
  });
});

import { describe, expect, it } from 'vitest';
import { backupName, zoneName } from './names';

describe('names the app makes', () => {
  it('says a time zone by its city in the language', () => {
    expect(zoneName('Asia/Tehran', 'fa')).toBe('تهران');
    expect(zoneName('Asia/Tehran', 'en')).toBe('Tehran');
    expect(zoneName('America/Los_Angeles', 'fa')).toBe('لس‌آنجلس');
    // A zone the picker does not offer: Intl's name for it, not its IANA id.
    expect(zoneName('Asia/Tokyo', 'en')).toMatch(/Japan/);
    expect(zoneName('Not/AZone', 'en')).toBe('Not/AZone');
  });

  it('names a backup by how and when it was made, in the language', () => {
    const made = Date.UTC(2026, 10, 29, 8, 49, 5, 123);
    const stamp = new Date(made).toISOString().replace(/[:.]/g, '-').slice(0, 23);
    expect(backupName(`/data/backups/chapar-${stamp}.db`, 'en')).toMatch(/^Backup of 2026-11-\d\d \d\d:\d\d:05$/);
    expect(backupName(`before-restore-${stamp}.db`, 'fa')).toMatch(
      /^نسخهٔ پیش از بازگردانی ۱۴۰۵\/۰۹\/[۰-۹]{2} [۰-۹:]+$/,
    );
    expect(backupName(`uploaded-${stamp}-2.db`, 'fa')).toMatch(/^نسخهٔ پشتیبان بارگذاری‌شده .+ \(۲\)$/);
    expect(backupName('C:\\backups\\my-copy.db', 'fa')).toBe('my-copy.db');
  });
});

// Sending to a segment: contacts uploaded through the HTTP API (spec 4.4) become a segment, which
// the composer offers once the import is done (import:progress push) and sends to.
import { describe, expect, it } from 'vitest';
import { createSegment } from '../campaigns/support';
import { openPage, appForSuite } from './app';
import { acceptedResultRows, confirmSend, poll, waitAllFinal } from './scenarios';

const CONTACTS = ['09131000001', '09131000002', '09131000003', '09131000004', '09131000005'];

describe('send to a segment (web UI)', () => {
  const app = appForSuite();

  it('offers an uploaded segment in Compose, with its size in the cost, and sends to it', async () => {
    const { page, url } = app();
    await openPage(page, 'compose');

    // The import runs in the background; the API's own status says when it is done.
    await createSegment(url, CONTACTS, { NAME: () => 'x' });

    // The push of the finished import brings the segment into the composer, without a reload.
    const segment = page.getByTestId('compose-segment');
    await poll(() => segment.isEnabled()).toBe(true);
    await page.getByTestId('compose-text').fill('Segment hello');
    await segment.click();
    await page.getByRole('option').first().click();
    // 5 members x 1 page x 150 tomans x 10.
    await poll(() => page.getByTestId('compose-total-cost').innerText()).toContain('7,500');

    await confirmSend(page);
    await page.getByTestId('compose-result').waitFor();
    expect(await page.getByTestId('result-accepted').getAttribute('data-value')).toBe(String(CONTACTS.length));
    await poll(() => acceptedResultRows(page).count()).toBe(CONTACTS.length);
    await waitAllFinal(acceptedResultRows(page));
    expect(app().problems).toEqual([]);
  });
});

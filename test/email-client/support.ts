// The relay client's tests (issue 15 part 2): a real core on a temp folder, segments imported
// through the core's contacts import of a generated CSV (PHONE_NUMBER, EMAIL, NAME and a CITY
// column), and waiting for a send to end.
import fs from 'node:fs';
import path from 'node:path';
import type { Core } from '../../electron/service/core';
import type { EmailSend } from '../../shared/ipc/contracts/email';
import { eventually } from '../helpers/server';

export interface Member {
  email: string;
  name?: string;
  city?: string;
}

/** Member i's number: 0912 + i padded, so the segment's order (by number) is the file's order. */
export const phoneOf = (i: number) => `0912${String(10_000_000 + i).slice(1)}`;

/** Imports the members as a new segment through the real import; returns its id once ready. */
export async function importSegment(
  core: Core,
  accountId: number,
  dir: string,
  members: Member[],
  name = 'people.csv',
) {
  const lines = ['PHONE_NUMBER,EMAIL,NAME,CITY'];
  members.forEach((member, i) =>
    lines.push([phoneOf(i), member.email, member.name ?? '', member.city ?? ''].join(',')),
  );
  const file = path.join(dir, name);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  const { jobId, segmentId } = await core.imports.start(accountId, { file });
  const job = await core.imports.wait(jobId);
  if (job.status !== 'done') throw new Error(`import ${job.status}`);
  return segmentId;
}

export function draft(accountId: number, segmentId: number, overrides: Record<string, unknown> = {}) {
  return {
    account_id: accountId,
    segment_id: segmentId,
    from: { email: 'news@shop.example', name: 'Shop' },
    subject: 'Hello {{ name }}',
    text: 'Dear {{Name}} of {{ CITY }}, your number is {{PHONE_NUMBER}}.',
    ...overrides,
  };
}

/** Waits until the send is no longer 'sending' (or `until` says so). */
export function settled(
  core: Core,
  accountId: number,
  sendId: number,
  timeoutMs = 30_000,
  until?: (send: EmailSend) => boolean,
) {
  return eventually(() => {
    const send = core.email.get(accountId, sendId);
    return (until ? until(send) : send.state !== 'sending') ? send : undefined;
  }, timeoutMs);
}

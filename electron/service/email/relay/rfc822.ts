// A message's raw RFC 822 form (the `content` of GET …/messages/{id}), built by nodemailer's
// MailComposer from what was stored for that recipient: From, To (that recipient alone),
// Reply-To, Subject, the request's own headers, the text/html/AMP parts and the attachments.
// Message-ID, Date and the multipart boundaries derive from the message, so two reads of one
// message are byte for byte the same. Nothing is read from files or URLs.
import MailComposer from 'nodemailer/lib/mail-composer';
import type { MessageRow } from './messages';

interface StoredAttachment {
  data: string;
  base64?: boolean | null;
  content_type?: string | null;
  file_name?: string | null;
  content_disposition?: 'attachment' | 'inline' | null;
  content_id?: string | null;
}

/** The domain of the sandbox's Message-IDs (nothing is sent anywhere under it). */
export const MESSAGE_ID_DOMAIN = 'sandbox.chapar.local';

export function messageIdHeader(id: string): string {
  return `<${id}@${MESSAGE_ID_DOMAIN}>`;
}

export async function rawMessage(row: MessageRow): Promise<string> {
  const attachments = (JSON.parse(row.attachments) as StoredAttachment[]).map((attachment) => ({
    content: attachment.data,
    encoding: attachment.base64 ? 'base64' : undefined,
    contentType: attachment.content_type ?? undefined,
    filename: attachment.file_name ?? undefined,
    contentDisposition: attachment.content_disposition ?? undefined,
    cid: attachment.content_id ?? undefined,
  }));
  const composer = new MailComposer({
    from: { address: row.sender, name: row.from_name ?? '' },
    to: { address: row.recipient, name: row.recipient_name ?? '' },
    replyTo: row.reply_to_email ? { address: row.reply_to_email, name: row.reply_to_name ?? '' } : undefined,
    subject: row.subject,
    text: row.text_content ?? undefined,
    html: row.html_content ?? undefined,
    amp: row.amp_content ?? undefined,
    headers: JSON.parse(row.headers) as Record<string, string>,
    attachments,
    messageId: messageIdHeader(row.id),
    date: new Date(row.created_at),
    baseBoundary: row.id.replace(/-/g, ''),
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const raw = await composer.compile().build();
  return raw.toString('utf8');
}

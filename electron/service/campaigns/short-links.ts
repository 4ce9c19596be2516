// Short links as the running app serves them: the base address new executions write them under (a
// setting; the local server's own address by default), the secret their codes are signed with,
// and a visit: the click recorded and the visitor sent on to the link's address (links.ts makes
// the codes and the address).
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { Settings } from '../settings/settings';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import type { CampaignStore } from './store';
import { campaignUtm, LinkCodes, redirectAddress, shortLinkLength } from './links';

const CampaignSettingsSchema = z.object({
  /** The public base address of short links; null: the local server's own address. */
  short_link_base: z.string().nullable().default(null),
});
const SecretSchema = z.string().min(16);

export interface LinkSettings {
  short_link_base: string | null;
  effective_base: string;
  link_length: number;
}

export class ShortLinks {
  private localAddress = 'http://127.0.0.1:8080';
  private codes: LinkCodes | null = null;

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      settings: Settings;
      store: CampaignStore;
      /** After a click was recorded (the execution's report changed). */
      onClick: (executionId: number) => void;
    },
  ) {}

  /** The local server's address, the default base of short links (the host calls this once it listens). */
  setLocalAddress(url: string): void {
    this.localAddress = url.replace(/\/+$/, '');
  }

  /** The base every new execution writes its short links under. */
  linkBase(): string {
    const configured = this.deps.settings.read('campaigns', CampaignSettingsSchema, { short_link_base: null });
    return (configured.short_link_base ?? this.localAddress).replace(/\/+$/, '');
  }

  /** How many characters a short link adds to a text now. */
  linkLength(): number {
    return shortLinkLength(this.linkBase());
  }

  /** The short links' settings: the configured base (null: the local server's address) and what is used. */
  linkSettings(): LinkSettings {
    const { short_link_base } = this.deps.settings.read('campaigns', CampaignSettingsSchema, {
      short_link_base: null,
    });
    return { short_link_base, effective_base: this.linkBase(), link_length: this.linkLength() };
  }

  /**
   * Sets the public base address of short links (an absolute http(s) address, for example a
   * domain that forwards to this PC), or null for the local server's own. Executions started
   * earlier keep the base they wrote their texts with.
   */
  setShortLinkBase(base: string | null): LinkSettings {
    let value: string | null = null;
    if (base !== null && base.trim() !== '') {
      let url: URL;
      try {
        url = new URL(base.trim());
      } catch {
        throw new ServiceError(ApiCode.BadRequest, 'the short link base is an absolute address', 'short_link_base');
      }
      if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash)
        throw new ServiceError(
          ApiCode.BadRequest,
          'the short link base is an http(s) address without query',
          'short_link_base',
        );
      value = url.toString().replace(/\/+$/, '');
    }
    this.deps.settings.write('campaigns', CampaignSettingsSchema, { short_link_base: value });
    return this.linkSettings();
  }

  /** The codes of short links, signed with the workspace's secret (made on first use). */
  linkCodes(): LinkCodes {
    if (this.codes === null) {
      let secret = this.deps.settings.read<string | null>('campaigns.link_secret', SecretSchema.nullable(), null);
      if (secret === null) {
        secret = randomBytes(24).toString('hex');
        this.deps.settings.write('campaigns.link_secret', SecretSchema, secret);
      }
      this.codes = new LinkCodes(secret);
    }
    return this.codes;
  }

  /** A visit of a short link: the click recorded, and where to send the visitor; null for no such link. */
  click(code: string, userAgent: string): string | null {
    const { db, store } = this.deps;
    const ref = this.linkCodes().decode(code);
    if (ref === null) return null;
    const execution = store.execution.get(ref.executionId);
    if (!execution || ref.seq >= execution.recorded) return null;
    const batch = store.batchOfSeq.get(ref.executionId, ref.seq);
    if (!batch || ref.seq >= batch.first_seq + batch.count) return null;
    const campaign = store.campaign.get(execution.campaign_id)!;
    // Its texts carry no short link: no code of it was ever given out.
    if (campaign.track_links === 0) return null;
    const link = store.linksOf(campaign.id).find((l) => l.idx === ref.link);
    if (!link) return null;
    const messageId = batch.first_message_id + (ref.seq - batch.first_seq);
    db.prepare(
      'INSERT INTO campaign_clicks (execution_id, message_id, link_idx, clicked_at, user_agent) VALUES (?, ?, ?, ?, ?)',
    ).run(execution.id, messageId, link.idx, this.deps.clock.now(), userAgent.slice(0, 500));
    this.deps.onClick(execution.id);
    return redirectAddress(link.actual_url, link.has_utm ? campaignUtm(campaign) : null);
  }
}

// The numbered migrations, in order. Append only: a released migration is never edited.
import core from './0001-core';
import contacts from './0002-contacts';
import app from './0003-app';
import noReceptorIndex from './0004-no-receptor-index';
import dueRanges from './0005-due-ranges';
import jobs from './0006-jobs';
import coreSeams from './0007-core-seams';
import campaigns from './0008-campaigns';
import contactsUi from './0009-contacts-ui';
import campaignDrafts from './0010-campaign-drafts';
import lineNumbersAscii from './0011-line-numbers-ascii';
import keyedApiKeyHashes from './0012-keyed-api-key-hashes';
import apiV1 from './0013-api-v1';
import inbound from './0014-inbound';
import emailRelay from './0015-email-relay';
import emailSends from './0016-email-sends';
import messageCounts from './0017-message-counts';
import housekeeping from './0018-housekeeping';
import receiverIndex from './0019-receiver-index';
import frozenOutcomes from './0020-frozen-outcomes';
import sendTextIndex from './0021-send-text-index';
import textTallies from './0022-text-tallies';
import messageStates from './0023-message-states';
import sendTallies from './0024-send-tallies';
import messageSources from './0025-message-sources';
import emailRelayPending from './0026-email-relay-pending';
import upstreams from './0027-upstreams';
import untrackedLinks from './0028-untracked-links';
import upstreamFiles from './0029-upstream-files';
import upstreamWaiting from './0030-upstream-waiting';
import upstreamLocalIds from './0031-upstream-local-ids';
import gatewayKinds from './0032-gateway-kinds';
import memberRows from './0033-member-rows';
import campaignFilters from './0034-campaign-filters';
import campaignSeries from './0035-campaign-series';

export interface Migration {
  name: string;
  sql: string;
  /**
   * The step rebuilds a table others refer to (SQLite's procedure for changes ALTER TABLE cannot
   * make): foreign keys are off while it runs and checked before it commits.
   */
  foreignKeysOff?: true;
}

export const migrations: readonly Migration[] = [
  { name: '0001-core', sql: core },
  { name: '0002-contacts', sql: contacts },
  { name: '0003-app', sql: app },
  { name: '0004-no-receptor-index', sql: noReceptorIndex },
  { name: '0005-due-ranges', sql: dueRanges },
  { name: '0006-jobs', sql: jobs },
  { name: '0007-core-seams', sql: coreSeams },
  { name: '0008-campaigns', sql: campaigns },
  { name: '0009-contacts-ui', sql: contactsUi },
  { name: '0010-campaign-drafts', sql: campaignDrafts },
  { name: '0011-line-numbers-ascii', sql: lineNumbersAscii },
  { name: '0012-keyed-api-key-hashes', sql: keyedApiKeyHashes },
  { name: '0013-api-v1', sql: apiV1 },
  { name: '0014-inbound', sql: inbound },
  { name: '0015-email-relay', sql: emailRelay },
  { name: '0016-email-sends', sql: emailSends },
  { name: '0017-message-counts', sql: messageCounts },
  { name: '0018-housekeeping', sql: housekeeping },
  { name: '0019-receiver-index', sql: receiverIndex },
  { name: '0020-frozen-outcomes', sql: frozenOutcomes },
  { name: '0021-send-text-index', sql: sendTextIndex },
  { name: '0022-text-tallies', sql: textTallies },
  { name: '0023-message-states', sql: messageStates },
  { name: '0024-send-tallies', sql: sendTallies },
  { name: '0025-message-sources', sql: messageSources },
  { name: '0026-email-relay-pending', sql: emailRelayPending },
  { name: '0027-upstreams', sql: upstreams },
  { name: '0028-untracked-links', sql: untrackedLinks },
  { name: '0029-upstream-files', sql: upstreamFiles },
  { name: '0030-upstream-waiting', sql: upstreamWaiting },
  { name: '0031-upstream-local-ids', sql: upstreamLocalIds },
  { name: '0032-gateway-kinds', sql: gatewayKinds, foreignKeysOff: true },
  { name: '0033-member-rows', sql: memberRows },
  { name: '0034-campaign-filters', sql: campaignFilters },
  { name: '0035-campaign-series', sql: campaignSeries },
];

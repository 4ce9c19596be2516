// The service's shape, checked from its source: every table has one owning domain folder and only
// that folder names it in SQL (what another domain needs is a named operation or SQL fragment of
// the owner), and no module of the service imports itself back, not even for a type.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import madge from 'madge';
import { describe, expect, it } from 'vitest';
import { migrate } from './db/database';
import { ROOT } from '../../test/helpers/server';

const SERVICE = path.join(ROOT, 'electron/service');

/** Each table's owning folder (under electron/service). The README's table map shows the same. */
export const TABLE_OWNERS: Record<string, string> = {
  accounts: 'accounts',
  account_config: 'accounts',
  api_keys: 'accounts',
  api_key_hashing: 'accounts',
  lines: 'accounts',
  credit_ledger: 'accounts',
  credit_reservations: 'accounts',
  uploads: 'contacts',
  import_jobs: 'contacts',
  import_layouts: 'contacts',
  import_rejections: 'contacts',
  import_added: 'contacts',
  segments: 'contacts',
  segment_members: 'contacts',
  optouts: 'contacts',
  sends: 'messaging',
  messages: 'messaging',
  message_due: 'messaging',
  message_counts: 'messaging',
  message_totals: 'messaging',
  message_states: 'messaging',
  message_states_fill: 'messaging',
  message_sources: 'messaging',
  send_sources: 'messaging',
  send_tallies: 'messaging',
  local_ids: 'messaging',
  inbound_messages: 'messaging',
  verify_templates: 'messaging',
  receiver_index: 'messaging',
  receiver_keys: 'messaging',
  receiver_odd: 'messaging',
  receiver_digits: 'messaging',
  receiver_messages: 'messaging',
  send_texts: 'messaging',
  send_text_index: 'messaging',
  send_text_tallies: 'messaging',
  text_templates: 'messaging',
  simulator_due: 'messaging/carriers',
  simulator_replies: 'messaging/carriers',
  upstream_handovers: 'messaging/carriers',
  upstream_lines: 'messaging/carriers',
  upstream_inbound: 'messaging/carriers',
  upstream_files: 'messaging/carriers',
  upstream_waiting: 'messaging/carriers',
  upstream_calls: 'messaging/carriers',
  upstream_local_ids: 'messaging/carriers',
  upstream_early_reports: 'messaging/carriers',
  campaigns: 'campaigns',
  campaign_drafts: 'campaigns',
  campaign_links: 'campaigns',
  campaign_executions: 'campaigns',
  campaign_series: 'campaigns',
  campaign_batches: 'campaigns',
  campaign_recipients: 'campaigns',
  campaign_clicks: 'campaigns',
  email_sends: 'email/client',
  email_recipients: 'email/client',
  email_relay_accounts: 'email/relay',
  email_relay_keys: 'email/relay',
  email_relay_requests: 'email/relay',
  email_relay_messages: 'email/relay',
  email_relay_message_tags: 'email/relay',
  email_relay_attempts: 'email/relay',
  email_relay_idempotency: 'email/relay',
  files: 'files',
  jobs: 'jobs',
  settings: 'settings',
  retention_runs: 'workspace',
  maintenance_log: 'workspace',
};

/** The owner of a table, a full-text index's shadow tables (`send_texts_data`…) its index's. */
function ownerOf(table: string): string | undefined {
  if (TABLE_OWNERS[table]) return TABLE_OWNERS[table];
  const index = Object.keys(TABLE_OWNERS)
    .filter((name) => table.startsWith(`${name}_`))
    .sort((a, b) => b.length - a.length)[0];
  return index && TABLE_OWNERS[index];
}

/** The domain folder a source file belongs to: the longest owner folder holding it. */
function folderOf(file: string): string {
  const owners = [...new Set(Object.values(TABLE_OWNERS))].sort((a, b) => b.length - a.length);
  return owners.find((owner) => file.startsWith(`${owner}/`)) ?? path.dirname(file);
}

// A table named after FROM / JOIN / INTO / UPDATE / TABLE (with an optional schema), and the
// further tables of a comma join (`FROM a x, b y`). SQL is written in capitals in this code.
const NAMED = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+(?:(?:main|temp)\.)?([a-z_][a-z0-9_]*)/g;
const COMMA_JOINED =
  /\bFROM\s+[a-z_][a-z0-9_]*(?:\s+(?:AS\s+)?[a-z]\w*)?((?:\s*,\s*[a-z_][a-z0-9_]*(?:\s+(?:AS\s+)?[a-z]\w*)?)+)/g;

export interface CrossUse {
  file: string;
  line: number;
  table: string;
  owner: string;
}

/** Every SQL use of a table outside its owner folder in the given sources (paths under electron/service). */
export function crossDomainUses(sources: { file: string; source: string }[]): CrossUse[] {
  const uses: CrossUse[] = [];
  for (const { file, source } of sources) {
    const folder = folderOf(file);
    // Comment lines blanked (their line breaks kept), so a statement split over lines is still read.
    const code = source.replace(/^\s*(\/\/|\*|\/\*).*$/gm, '');
    const lineAt = (index: number) => code.slice(0, index).split('\n').length;
    const found: { table: string; index: number }[] = [];
    for (const m of code.matchAll(NAMED)) found.push({ table: m[1]!, index: m.index });
    for (const m of code.matchAll(COMMA_JOINED))
      for (const part of m[1]!.split(',').slice(1)) found.push({ table: part.trim().split(/\s+/)[0]!, index: m.index });
    for (const { table, index } of found) {
      const owner = ownerOf(table);
      if (owner && owner !== folder) uses.push({ file, line: lineAt(index), table, owner });
    }
  }
  return uses;
}

function serviceSources(): { file: string; source: string }[] {
  const found: { file: string; source: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        // Migrations build every domain's tables (and the triggers between them) in one history.
        if (entry.name !== 'migrations') walk(full);
      } else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
        found.push({
          file: path.relative(SERVICE, full).split(path.sep).join('/'),
          source: fs.readFileSync(full, 'utf8'),
        });
    }
  };
  walk(SERVICE);
  return found;
}

describe('each domain owns its tables', () => {
  it('every table the migrations make has an owner', () => {
    const db = new Database(':memory:');
    migrate(db);
    const tables = db
      .prepare<[], string>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
      )
      .pluck()
      .all();
    db.close();
    expect(tables.filter((table) => !ownerOf(table))).toEqual([]);
    // And the map names no table that is gone.
    expect(Object.keys(TABLE_OWNERS).filter((table) => !tables.includes(table))).toEqual([]);
  });

  it('the README shows the same map', () => {
    const readme = fs.readFileSync(path.join(SERVICE, 'README.md'), 'utf8');
    const shown: Record<string, string> = {};
    for (const row of readme.matchAll(/^\| `([a-z/]+)\/` +\| (.*) \|$/gm))
      for (const table of row[2]!.matchAll(/`([a-z_0-9]+)`/g)) shown[table[1]!] = row[1]!;
    expect(shown).toEqual(TABLE_OWNERS);
  });

  it('only the owner folder names a table in SQL', () => {
    const uses = crossDomainUses(serviceSources()).map((u) => `${u.file}:${u.line} ${u.table} (owned by ${u.owner})`);
    expect(uses).toEqual([]);
  });

  it('the scan finds a planted use of another domain’s table', () => {
    const planted = [
      { file: 'workspace/planted.ts', source: "db.prepare('DELETE FROM messages WHERE id < ?');" },
      { file: 'contacts/planted.ts', source: 'const x = `SELECT 1 FROM segments s, campaigns c WHERE c.id = ?`;' },
      { file: 'messaging/planted.ts', source: "db.prepare('SELECT * FROM simulator_due');" },
      { file: 'accounts/planted.ts', source: "db.prepare('INSERT INTO lines (number) VALUES (?)');" },
    ];
    expect(crossDomainUses(planted).map((u) => `${u.file} ${u.table}`)).toEqual([
      'workspace/planted.ts messages',
      'contacts/planted.ts campaigns',
      'messaging/planted.ts simulator_due',
    ]);
  });

  it('electron/service has no import cycle, type-only imports included', async () => {
    const graph = await madge(SERVICE, {
      fileExtensions: ['ts'],
      tsConfig: path.join(ROOT, 'tsconfig.json'),
      excludeRegExp: [/\.test\.ts$/],
    });
    expect(graph.circular()).toEqual([]);
  });
});

// The names of every IPC operation and push event, without their schemas: the preload's allowlist
// imports only this (a sandboxed preload cannot load zod). contracts.ts is typed so that its
// registry has exactly these keys, so the allowlist and the contracts cannot drift apart.
export const CHANNEL_NAMES = [
  'accounts:list',
  'accounts:create',
  'accounts:update',
  'apiKeys:list',
  'apiKeys:create',
  'apiKeys:revoke',
  'lines:list',
  'lines:upsert',
  'lines:remove',
  'credit:balance',
  'credit:topUp',
  'credit:ledger',
  'pricing:get',
  'pricing:set',
  'simulator:get',
  'simulator:set',
  'compose:preview',
  'messages:send',
  'messages:list',
  'messages:count',
  'messages:timeline',
  'messages:export',
  'dashboard:stats',
  'settings:get',
  'settings:set',
  'backup:create',
  'backup:list',
  'backup:restore',
  'segments:list',
  'files:choose',
  'files:reveal',
] as const;
export type ChannelName = (typeof CHANNEL_NAMES)[number];

export const EVENT_NAMES = ['messages:status-changed', 'import:progress', 'export:progress'] as const;
export type EventNameOf = (typeof EVENT_NAMES)[number];

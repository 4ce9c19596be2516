// The domain shapes the IPC contracts carry, in zod, gathered under one name for code that needs a
// shape but not the contracts (the core's domain types, the renderer's forms). Each shape is
// defined once, beside its domain's contracts in contracts/<domain>.ts; the building blocks they
// share are in primitives.ts.
export { Id, EpochMs, Rials, ProviderSchema, LinePermissionSchema, NoInput, Empty } from './primitives';
export {
  AccountSchema,
  type Account,
  ApiKeyInfoSchema,
  type ApiKeyInfo,
  LineSchema,
  type Line,
} from './contracts/accounts';
export { LedgerKindSchema, type LedgerKind, LedgerEntrySchema, type LedgerEntry } from './contracts/credit';
export {
  PricingSchema,
  type Pricing,
  SimulatorSchema,
  type Simulator,
  LanguageSchema,
  type Language,
  HttpApiSettingsSchema,
  AppSettingsSchema,
  type AppSettings,
  AppSettingsPatchSchema,
} from './contracts/settings';
export {
  ReceiversInputSchema,
  ParsedReceiversSchema,
  type ParsedReceivers,
  ComposePreviewInputSchema,
  ComposePreviewSchema,
  type ComposePreview,
  MessageFilterSchema,
  type MessageFilter,
  MessageRowSchema,
  type MessageRow,
  MessageListInputSchema,
  MessageListSchema,
  TimelineEventSchema,
  MessageTimelineSchema,
  ExportFormatSchema,
  MessageExportInputSchema,
  MessageExportSchema,
  StatusChangeSchema,
} from './contracts/messaging';
export {
  StatusCountsSchema,
  type StatusCounts,
  DashboardInputSchema,
  DashboardBucketSchema,
  DashboardStatsSchema,
  type DashboardStats,
} from './contracts/dashboard';
export { BackupSchema, type Backup } from './contracts/backup';
export {
  SegmentSummarySchema,
  SegmentDetailSchema,
  SegmentMemberSchema,
  ImportPreviewSchema,
  ImportJobSchema,
  ColumnMappingSchema,
  type SegmentSummary,
  type SegmentDetail,
  type ImportPreview,
  type ImportJobView,
  type ColumnMapping,
} from './contracts/contacts';

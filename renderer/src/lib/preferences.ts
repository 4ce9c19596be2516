// What one person prefers, kept with their profile rather than in the shared workspace: the
// desktop app's own storage, or this browser's in web mode (two people on one `serve` each keep
// theirs). The language (null: follow the system's), the unit amounts are shown and typed in, and
// the composer's safety thresholds.
import { createStore } from 'zustand/vanilla';
import { isLanguage, type Language } from './format';
import { isMoneyUnit, type MoneyUnit } from './money';

export interface Preferences {
  /** null until the person picks one: the system's language is used. */
  language: Language | null;
  /** The unit amounts are shown and typed in (the API, the ledger and exports stay in rials). */
  moneyUnit: MoneyUnit;
  /** A send that costs more than this asks a second, stronger confirmation (rials). */
  confirmAboveRials: number;
  /** A text of more pages than this is warned about before sending. */
  warnAbovePages: number;
}

export const DEFAULT_PREFERENCES: Preferences = {
  language: null,
  moneyUnit: 'rials',
  confirmAboveRials: 10_000_000,
  warnAbovePages: 5,
};

const KEY = 'chapar.preferences';

export type PreferenceStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** What was stored, field by field: a missing or damaged value falls back to its default. */
export function readPreferences(storage: PreferenceStorage | null): Preferences {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(KEY) ?? '{}');
    if (parsed && typeof parsed === 'object') stored = parsed as Record<string, unknown>;
  } catch {
    // damaged: the defaults
  }
  const count = (value: unknown, fallback: number) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : fallback;
  return {
    language: isLanguage(stored.language) ? stored.language : DEFAULT_PREFERENCES.language,
    moneyUnit: isMoneyUnit(stored.moneyUnit) ? stored.moneyUnit : DEFAULT_PREFERENCES.moneyUnit,
    confirmAboveRials: count(stored.confirmAboveRials, DEFAULT_PREFERENCES.confirmAboveRials),
    warnAbovePages: count(stored.warnAbovePages, DEFAULT_PREFERENCES.warnAbovePages),
  };
}

export interface PreferencesState extends Preferences {
  set(patch: Partial<Preferences>): void;
}

export function createPreferencesStore(storage: PreferenceStorage | null = browserStorage()) {
  return createStore<PreferencesState>()((set, get) => ({
    ...readPreferences(storage),
    set(patch) {
      set(patch);
      const { language, moneyUnit, confirmAboveRials, warnAbovePages } = get();
      try {
        storage?.setItem(KEY, JSON.stringify({ language, moneyUnit, confirmAboveRials, warnAbovePages }));
      } catch {
        // storage full or denied: the choice holds for this session
      }
    },
  }));
}
export type PreferencesStore = ReturnType<typeof createPreferencesStore>;

function browserStorage(): PreferenceStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // denied (privacy settings)
  }
}

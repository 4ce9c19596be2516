// Names the app makes up for what it shows, in the UI's language: a time zone by its city, a
// backup by how and when it was made (its file keeps the name on disk).
import { en } from '../i18n/en';
import { fa } from '../i18n/fa';
import { digits, formatDateTime, type Language } from './format';

const TEXTS = { en, fa } as const;

/** A time zone as people say it: the picker's zones by their city, others by Intl's name for them. */
export function zoneName(zone: string, language: Language): string {
  const named = (TEXTS[language].campaignEditor.when.zones as Record<string, string>)[zone];
  if (named !== undefined) return named;
  try {
    const part = new Intl.DateTimeFormat(language, { timeZone: zone, timeZoneName: 'longGeneric' })
      .formatToParts(0)
      .find((p) => p.type === 'timeZoneName');
    return part?.value ?? zone;
  } catch {
    return zone;
  }
}

// How the core names the backups it makes: <kind>-<UTC time, ":" and "." as "-">[-n].db.
const BACKUP_FILE = /^(chapar|before-restore|uploaded)-(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d)-(\d{3})(?:-(\d+))?\.db$/;

/** A backup file as the app calls it ("Backup of 1405/09/08 10:30:00"); another file by its own name. */
export function backupName(file: string, language: Language): string {
  const name = file.split(/[\\/]/).pop() ?? file;
  const match = BACKUP_FILE.exec(name);
  if (!match) return name;
  const [, kind, day, hour, minute, second, ms, nth] = match;
  const made = Date.parse(`${day}T${hour}:${minute}:${second}.${ms}Z`);
  const date = formatDateTime(made, language);
  const names = TEXTS[language].settings.backup.names;
  const text = names[kind as keyof typeof names].replace('{{date}}', date);
  // Two made in the same millisecond: the second is "(2)".
  return nth === undefined ? text : `${text} (${digits(nth, language)})`;
}

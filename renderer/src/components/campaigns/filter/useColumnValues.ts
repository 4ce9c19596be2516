// A column's most frequent values among the included segments' members, offered as the values of
// "is" and "is one of" (the core reads a bounded sample off the main thread; spellings folded into
// one, as the filter compares them). Read again when the column or the segments change.
import { useEffect, useState } from 'react';
import { useStores } from '../../../stores/context';
import { useEditor } from '../editor/useEditor';

export interface ColumnValue {
  value: string;
  count: number;
}

const NONE: ColumnValue[] = [];

export function useColumnValues(segmentIds: readonly number[], column: string | null): ColumnValue[] {
  const { contacts } = useStores();
  const accountId = useEditor((s) => s.accountId);
  const key =
    accountId === null || column === null || segmentIds.length === 0
      ? null
      : `${accountId}|${segmentIds.join(',')}|${column}`;
  const [read, setRead] = useState<{ key: string; values: ColumnValue[] } | null>(null);
  useEffect(() => {
    if (key === null || accountId === null || column === null) return;
    let current = true;
    const { api } = contacts.getState();
    const ids = key.split('|')[1]!.split(',').map(Number);
    void api
      .invoke('segments:columnValues', { account_id: accountId, segment_ids: ids, column })
      .then((columns) => current && setRead({ key, values: columns[0]?.values ?? NONE }))
      // Without suggestions a value is still typed.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [contacts, accountId, key, column]);
  // Values read for another column or other segments are not these.
  return read !== null && read.key === key ? read.values : NONE;
}

// A column's most frequent values among the included segments' members, offered as the values of
// "is" and "is one of" (the core reads them, bounded; folded spellings counted together and shown
// as the most frequent way they are written). Read again when the column or the segments change.
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
  const [values, setValues] = useState<ColumnValue[]>(NONE);
  const key = segmentIds.join(',');
  useEffect(() => {
    setValues(NONE);
    if (accountId === null || column === null || key === '') return;
    let current = true;
    const { api } = contacts.getState();
    void api
      .invoke('segments:columnValues', { account_id: accountId, segment_ids: key.split(',').map(Number), column })
      .then((answer) => current && setValues(answer.values))
      // Without suggestions a value is still typed.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [contacts, accountId, key, column]);
  return values;
}

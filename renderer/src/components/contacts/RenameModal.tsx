// Renaming a segment (Persian names welcome; 1 to 200 characters).
import { Button, Group, Modal, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import type { SegmentSummary } from '../../api';
import { useTextDirection } from '../../lib/direction';

export function RenameModal({
  segment,
  onClose,
}: {
  segment: Pick<SegmentSummary, 'id' | 'name'> | null;
  onClose: (renamed?: string) => void;
}) {
  const { t } = useTranslation();
  const rename = useStore(useStores().contacts, (s) => s.rename);
  const [name, setName] = useState('');
  const direction = useTextDirection(name);
  const [saving, setSaving] = useState(false);
  const [forId, setForId] = useState<number | null>(null);
  // A new segment to rename starts from its own name.
  if (segment && segment.id !== forId) {
    setForId(segment.id);
    setName(segment.name);
  }
  const save = async () => {
    if (!segment || !name.trim()) return;
    setSaving(true);
    const done = await rename(segment.id, name.trim());
    setSaving(false);
    if (done) onClose(name.trim());
  };
  return (
    <Modal opened={segment !== null} onClose={() => onClose()} title={t('contacts.renameTitle')} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <TextInput
          label={t('contacts.newName')}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          maxLength={200}
          dir={direction}
          data-autofocus
          data-testid="rename-input"
        />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => onClose()} data-testid="rename-cancel">
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={saving} disabled={!name.trim()} data-testid="rename-save">
            {t('common.save')}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}

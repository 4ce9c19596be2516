// Union / difference: contacts in any of the included segments and in none of the excluded ones
// (opted-out numbers left out), counted by the service as the choice changes, before creating.
import { Button, Group, Modal, MultiSelect, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { counted } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { useTextDirection } from '../../lib/direction';

export function CombineModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { contacts } = useStores();
  const segments = useStore(contacts, (s) => s.segments) ?? [];
  const combineCount = useStore(contacts, (s) => s.combineCount);
  const combine = useStore(contacts, (s) => s.combine);
  const [include, setInclude] = useState<string[]>([]);
  const [exclude, setExclude] = useState<string[]>([]);
  const [name, setName] = useState('');
  const direction = useTextDirection(name);
  const [count, setCount] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const options = segments.filter((s) => s.status === 'ready').map((s) => ({ value: String(s.id), label: s.name }));
  const key = `${include.join(',')}|${exclude.join(',')}`;
  useEffect(() => {
    let current = true;
    const [inc, exc] = key.split('|').map((ids) => (ids ? ids.split(',').map(Number) : []));
    const timer = setTimeout(() => {
      void combineCount(inc!, exc!).then((n) => current && setCount(n));
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
      setCount(null);
    };
  }, [key, combineCount]);
  const close = () => {
    setInclude([]);
    setExclude([]);
    setName('');
    onClose();
  };
  const create = async () => {
    setCreating(true);
    const id = await combine(name.trim(), include.map(Number), exclude.map(Number));
    setCreating(false);
    if (id !== null) {
      notifications.show({ color: 'teal', message: t('contacts.combineStarted') });
      close();
    }
  };
  return (
    <Modal opened={opened} onClose={close} title={t('contacts.combineTitle')} centered size="lg">
      <Stack gap="sm">
        <MultiSelect
          label={t('contacts.combineInclude')}
          data={options}
          value={include}
          onChange={setInclude}
          searchable
          data-testid="combine-include"
        />
        <MultiSelect
          label={t('contacts.combineExclude')}
          data={options.filter((option) => !include.includes(option.value))}
          value={exclude}
          onChange={setExclude}
          searchable
          data-testid="combine-exclude"
        />
        <Text fw={600} data-testid="combine-count" data-value={count ?? ''}>
          {include.length === 0
            ? ' '
            : count === null
              ? t('contacts.combineCounting')
              : t('contacts.combineCount', counted(count, language))}
        </Text>
        <TextInput
          label={t('contacts.combineName')}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          dir={direction}
          maxLength={200}
          data-testid="combine-name"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close} data-testid="combine-cancel">
            {t('common.cancel')}
          </Button>
          <Button
            onClick={() => void create()}
            loading={creating}
            disabled={include.length === 0 || !name.trim()}
            data-testid="combine-create"
          >
            {t('contacts.combineCreate')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

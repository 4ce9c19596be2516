// Deleting a segment, after saying what goes with it: how many contacts, which campaigns use it.
import { Button, Group, List, Loader, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import type { SegmentDetail } from '../../stores/contacts';
import { counted } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import type { SegmentSummary } from '../../api';

export function DeleteModal({
  segment,
  onClose,
}: {
  segment: Pick<SegmentSummary, 'id' | 'name'> | null;
  onClose: (deleted?: boolean) => void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { contacts } = useStores();
  const detail = useStore(contacts, (s) => s.detail);
  const remove = useStore(contacts, (s) => s.remove);
  const [info, setInfo] = useState<SegmentDetail | null>(null);
  const [deleting, setDeleting] = useState(false);
  useEffect(() => {
    if (!segment) return;
    let current = true;
    void detail(segment.id).then((answer) => current && setInfo(answer));
    return () => {
      current = false;
      setInfo(null);
    };
  }, [segment, detail]);
  const confirm = async () => {
    if (!segment) return;
    setDeleting(true);
    const done = await remove(segment.id);
    setDeleting(false);
    if (done) {
      notifications.show({ color: 'teal', message: t('contacts.deleted') });
      onClose(true);
    }
  };
  return (
    <Modal
      opened={segment !== null}
      onClose={() => onClose()}
      title={segment ? t('contacts.deleteTitle', { name: segment.name }) : ''}
      centered
    >
      {info === null ? (
        <Loader size="sm" />
      ) : (
        <Stack
          gap="sm"
          data-testid="delete-info"
          data-members={info.member_count}
          data-campaigns={info.campaigns.length}
        >
          <Text>
            {t('contacts.deleteMembers', counted(info.member_count, language))}
            {/* Only an imported segment has a file to reassure about. */}
            {info.source.kind === 'import' ? ` ${t('contacts.deleteFileKept')}` : null}
          </Text>
          {info.campaigns.length > 0 ? (
            <>
              <Text c="orange.8">{t('contacts.deleteCampaigns')}</Text>
              <List size="sm">
                {info.campaigns.map((campaign) => (
                  <List.Item key={campaign.campaign_id}>{campaign.name}</List.Item>
                ))}
              </List>
            </>
          ) : (
            <Text c="dimmed" size="sm">
              {t('contacts.deleteNoCampaigns')}
            </Text>
          )}
        </Stack>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={() => onClose()} data-testid="delete-cancel">
          {t('common.cancel')}
        </Button>
        <Button
          color="red"
          onClick={() => void confirm()}
          loading={deleting}
          disabled={info === null}
          data-testid="delete-confirm"
        >
          {t('contacts.deleteConfirm')}
        </Button>
      </Group>
    </Modal>
  );
}

// Campaigns: the list of drafts and campaigns, the editor (a new campaign or a draft) and an
// execution's report, each at its own address under #/campaigns so a reload keeps the user there.
import { useEffect } from 'react';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useSubPath } from '../components/useRoute';
import { useStores } from '../stores/context';
import { CampaignList } from '../components/campaigns/list/CampaignList';
import { CampaignReport } from '../components/campaigns/report/CampaignReport';
import { CampaignEditor } from '../components/campaigns/editor/CampaignEditor';

export function CampaignsPage() {
  const path = useSubPath();
  useCampaignErrors();
  // One key for a new campaign and its draft: the first keystroke creates the draft and moves the
  // address to it, and the editor (with the input being typed in) must stay the same.
  if (path === 'new') return <CampaignEditor key="editor" draftId={null} />;
  const draft = /^draft\/(\d+)$/.exec(path);
  if (draft) return <CampaignEditor key="editor" draftId={Number(draft[1])} />;
  const execution = /^execution\/(\d+)$/.exec(path);
  if (execution) return <CampaignReport key={execution[1]} executionId={Number(execution[1])} />;
  return <CampaignList />;
}

/** The list's and the report's refusals, shown once each as the other stores' are. */
function useCampaignErrors() {
  const { t } = useTranslation();
  const { campaigns } = useStores();
  const error = useStore(campaigns, (s) => s.error);
  useEffect(() => {
    if (error) notifications.show({ id: error, color: 'red', title: t('common.error'), message: error });
  }, [error, t]);
}

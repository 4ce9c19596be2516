// Contacts: the segments list, a segment's page, the opt-out list and the import wizard, each at
// its own address under #/contacts so a reload keeps the user where they were.
import { useSubPath } from '../components/useRoute';
import { SegmentList } from '../components/contacts/SegmentList';
import { SegmentPage } from '../components/contacts/SegmentPage';
import { OptOutsPage } from '../components/contacts/OptOutsPage';
import { ImportWizard } from '../components/import/ImportWizard';

export function ContactsPage() {
  const path = useSubPath();
  const segment = /^segment\/(\d+)$/.exec(path);
  if (segment) return <SegmentPage key={segment[1]} segmentId={Number(segment[1])} />;
  if (path === 'optouts') return <OptOutsPage />;
  if (path.startsWith('import')) {
    const into = /^import\/(\d+)$/.exec(path);
    return <ImportWizard segmentId={into ? Number(into[1]) : undefined} />;
  }
  return <SegmentList />;
}

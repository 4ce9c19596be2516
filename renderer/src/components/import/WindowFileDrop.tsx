// Dropping a file anywhere on the window opens the import wizard with it: an overlay says so
// while a file is dragged over, and the drop hands the file to the wizard's store.
import { Overlay, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconFileUpload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { navigate } from '../useRoute';

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

export function WindowFileDrop() {
  const { t } = useTranslation();
  const { imports } = useStores();
  const [over, setOver] = useState(false);
  useEffect(() => {
    // dragenter/dragleave fire for every child: count them to know when the file left the window.
    let depth = 0;
    const enter = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      depth++;
      setOver(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const overHandler = (event: DragEvent) => {
      if (hasFiles(event)) event.preventDefault();
    };
    const drop = (event: DragEvent) => {
      depth = 0;
      setOver(false);
      const file = event.dataTransfer?.files[0];
      if (!file) return;
      event.preventDefault();
      // A drop zone of the wizard handles its own drops.
      if ((event.target as HTMLElement | null)?.closest?.('[data-import-dropzone]')) return;
      navigate('contacts/import');
      void imports.getState().openFile(file);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overHandler);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overHandler);
      window.removeEventListener('drop', drop);
    };
  }, [imports]);
  if (!over) return null;
  return (
    <Overlay fixed blur={2} backgroundOpacity={0.35} zIndex={400} data-testid="window-drop-overlay">
      <Stack align="center" justify="center" h="100%" style={{ pointerEvents: 'none' }}>
        <ThemeIcon size={72} radius="xl" color="teal">
          <IconFileUpload size={40} />
        </ThemeIcon>
        <Text size="xl" fw={700} c="white">
          {t('import.dropWindow')}
        </Text>
      </Stack>
    </Overlay>
  );
}

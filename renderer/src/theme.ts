// Mantine theme: one primary color, and a font stack per script. Vazirmatn ships with the app
// (@fontsource/vazirmatn, bundled, so it works offline) and covers Latin too, so both languages
// share it; the system stack behind it is only a fallback.
import { createTheme } from '@mantine/core';

const FONT_STACK = "Vazirmatn, 'Segoe UI', Tahoma, 'Noto Sans Arabic', 'DejaVu Sans', system-ui, sans-serif";

export const theme = createTheme({
  primaryColor: 'teal',
  // Transitions (modals, drawers) follow the system's reduced-motion setting.
  respectReducedMotion: true,
  defaultRadius: 'md',
  fontFamily: FONT_STACK,
  headings: { fontFamily: FONT_STACK },
  fontFamilyMonospace: "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace",
});

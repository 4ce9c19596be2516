// Entry: connect to the service (Electron's preload bridge or the web bridge), build the stores
// from that client, pick the first language (this person's choice kept in their profile or
// browser, else the system's; never the server's), render.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@fontsource/vazirmatn/400.css';
import '@fontsource/vazirmatn/500.css';
import '@fontsource/vazirmatn/700.css';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/charts/styles.css';
import './app.css';
import { connectApi } from './api';
import { createStores } from './stores';
import { initI18n } from './i18n';
import { App } from './App';

const api = connectApi();
const stores = createStores(api, navigator.language);
// The session's language is already the preference's (or navigator.language's): drawn in it at once.
initI18n(stores.session.getState().language);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App api={api} stores={stores} />
  </StrictMode>,
);

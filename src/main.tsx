import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { startCluster } from './ui/cluster-client';
import { installTestHook } from './ui/test-hook';
import { installPersistence } from './ui/persistence/session';
import './ui/i18n/i18n';
import { installTheme } from './ui/theme';
import { installShortcuts } from './ui/shortcuts';
import './ui/app.css';

installTestHook();
installTheme();
installShortcuts();
installPersistence();
startCluster();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

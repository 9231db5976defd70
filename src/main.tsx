import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { startCluster } from './ui/cluster-client';
import { installTestHook } from './ui/test-hook';
import './ui/app.css';

installTestHook();
startCluster();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

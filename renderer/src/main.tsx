import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startLive } from './api/live';
import { App } from './app/App';
import './styles/theme.css';
import './styles/base.css';

startLive();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

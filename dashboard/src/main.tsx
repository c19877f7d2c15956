import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { i18nReady } from './lib/i18n';
import './styles/tokens.css';
import './styles.css';
import './styles/identity.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');

// The active language's catalogue is a chunk of its own (lib/i18n.ts): the first render waits
// for it, so no screen shows a raw key. The router (imported with App) has already started
// loading the current route's chunk meanwhile. The first render is a transition: React renders
// it in slices, so it does not hold the main thread in one long task (index.html's header shows
// meanwhile).
void i18nReady.then(() =>
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  ),
);

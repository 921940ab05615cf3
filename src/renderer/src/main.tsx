import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { CallError } from './api/transport';
import './styles.css';

const client = new QueryClient({
  defaultOptions: {
    // Live events keep data fresh; refetching on focus would only add noise.
    // Only transient failures are retried; a refused or invalid call would fail the same way again.
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, error) => count < 1 && error instanceof CallError && error.type === 'api_error',
    },
  },
});

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={client}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  );
}

import { useSyncExternalStore } from 'react';

/**
 * Whether the app's layout mounts the toaster yet. Toasts (toast.tsx, on sonner) come with the
 * screens that raise them, not with the entry: toast.tsx calls `wantToaster()` when it loads,
 * and the layout then mounts its `<Toaster />` (a lazy chunk it shares with them). A toast
 * raised before the toaster subscribes is not lost: sonner hands a new toaster the toasts
 * already active. The sign-in page raises none, so it downloads no sonner at all.
 */
let wanted = false;
const listeners = new Set<() => void>();

export function wantToaster(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasterWanted(): boolean {
  return useSyncExternalStore(subscribe, () => wanted);
}

import { toast } from '@/components/toast';
import { codedMessage } from '@/lib/api-client';
import type { CodedWarning } from '@/lib/types';

/**
 * Shows what a save kept but the owner should know (a page under a redirect, a redirect over a
 * page), one warning toast each, in the interface's language (`errors.<code>`).
 */
export function showWarnings(warnings: CodedWarning[] | undefined): void {
  for (const w of warnings ?? []) toast.warning(codedMessage(w.code, w.params, w.message));
}

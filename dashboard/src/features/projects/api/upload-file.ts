import { useMutation } from '@tanstack/react-query';
import { apiText } from '@/lib/api-client';

export interface UploadInput {
  name: string;
  /** data: URL of the file. */
  content: string;
  /** Folder prefix: [user_id, project_id]. */
  prefix?: (string | number)[];
  /** Narrows what the server accepts: 'image' (png/jpg) or 'font' (woff2). */
  accept?: 'image' | 'font';
}

/** Stores a file; answers with its URL (text/plain), e.g. /files/uploads/3/7/ab12.woff2. */
export function uploadFile(input: UploadInput): Promise<string> {
  return apiText('/api/upload', { method: 'POST', body: input }).then((url) => url.trim());
}

export function useUploadFile() {
  return useMutation({ mutationFn: uploadFile });
}

/** Reads a chosen file as a data: URL for the upload body (kept here for existing imports). */
export { readAsDataUrl } from '@/lib/files';

import { useMutation } from '@tanstack/react-query';
import { apiText } from '@/lib/api-client';

export interface UploadInput {
  name: string;
  /** data: URL of the file. */
  content: string;
  /** Folder prefix: [user_id, project_id, table_id], rich-text images included. */
  prefix?: (string | number)[];
  /** 'image' makes the server accept only png/jpg. */
  accept?: 'image';
}

/** Stores a file; answers with its URL (text/plain). */
export function uploadFile(input: UploadInput): Promise<string> {
  return apiText('/api/upload', { method: 'POST', body: input }).then((url) => url.trim());
}

export function useUploadFile() {
  return useMutation({ mutationFn: uploadFile });
}

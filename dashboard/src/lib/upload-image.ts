import { useMutation } from '@tanstack/react-query';
import { apiText } from '@/lib/api-client';

export interface UploadImageInput {
  name: string;
  /** data: URL of the file. */
  content: string;
  /** [user_id, project_id] for page and block images, rich text included. */
  prefix: (string | number)[];
}

/** Stores an image; answers with its URL (text/plain). */
export function uploadImage(input: UploadImageInput): Promise<string> {
  return apiText('/api/upload', { method: 'POST', body: { ...input, accept: 'image' } }).then((url) =>
    url.trim(),
  );
}

export function useUploadImage() {
  return useMutation({ mutationFn: uploadImage });
}

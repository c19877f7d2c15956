import { useMutation } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';

/**
 * JSON from an external address through the control plane's fetch proxy (it refuses private
 * addresses and caps size and time). The editor uses it to try an API list source.
 */
export function fetchExternal(url: string): Promise<unknown> {
  return apiJson<unknown>(`/api/fetch?url=${encodeURIComponent(url)}`);
}

export function useFetchExternal() {
  return useMutation({ mutationFn: fetchExternal });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiText } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface VerifyDomainInput {
  projectId: number;
  domain: string;
}

/**
 * Asks the server to check the domain's DNS (its TXT proof and where it points). On success the
 * server itself sets the domain and the verified flags and answers with a sentence saying what it
 * found; a failure's body says why (it becomes the ApiError's message), and the server has saved
 * the domain as pending. The client never writes the verified flags.
 */
export function verifyDomain({ projectId, domain }: VerifyDomainInput): Promise<string> {
  return apiText('/api/dns-verify', { method: 'POST', body: { project_id: projectId, domain } });
}

export function useVerifyDomain() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: verifyDomain,
    // A failed check changes the project too: the domain waits as pending.
    onSettled: (_data, _error, { projectId }) =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.project(projectId) }),
        client.invalidateQueries({ queryKey: queryKeys.projects, exact: true }),
      ]),
  });
}

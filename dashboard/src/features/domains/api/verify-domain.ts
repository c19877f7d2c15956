import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import type { DnsReport } from '@/lib/types';
import { queryKeys } from '@/lib/query-keys';

export interface VerifyDomainInput {
  projectId: number;
  domain: string;
}

/**
 * Asks the server to check the domain's DNS (its TXT proof and where it points). It answers in
 * JSON because the client accepts it (the spec's answer is the same report as text): on success
 * the server itself sets the domain and the verified flags and says where it points
 * (`dns_verified_address`); a failure is an ApiError (`dns_not_ready`, `dns_unreachable`) whose
 * details are what was found and what to set, and the server has saved the domain as pending.
 * The client never writes the verified flags.
 */
export function verifyDomain({ projectId, domain }: VerifyDomainInput): Promise<DnsReport> {
  return apiJson<DnsReport>('/api/dns-verify', { method: 'POST', body: { project_id: projectId, domain } });
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

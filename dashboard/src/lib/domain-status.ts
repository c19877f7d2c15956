import type { DomainCheck, Project } from '@/lib/types';

/** What a project's address state is made of, as the project answers carry it. */
export type AddressFields = Pick<Project, 'domain' | 'preview_url' | 'meta' | 'domain_check'>;

/**
 * Where a project's site answers and what its custom domain is waiting for, in one place for the
 * publish dialogs, the project cards and the overview:
 * - `verified`: the custom domain serves the site (verified for this very domain);
 * - `pending`: the domain was saved but its DNS records are not in place yet: the site answers at
 *   its preview address meanwhile, and the server checks the domain again by itself (`check`
 *   says when: `next_check_at`, null once it stopped);
 * - `unverified`: a domain saved before the server kept pending checks, not verified;
 * - `none`: no custom domain, the preview address is the site's.
 */
export type DomainStatus =
  | { kind: 'none'; live: string }
  | { kind: 'verified'; live: string; domain: string }
  | { kind: 'pending'; live: string; domain: string; check: DomainCheck }
  | { kind: 'unverified'; live: string; domain: string };

export function domainStatus(project: AddressFields): DomainStatus {
  const domain = project.domain;
  if (!domain) return { kind: 'none', live: project.preview_url };
  if (project.meta.verified && project.meta.verifiedDomain === domain) {
    return { kind: 'verified', live: `https://${domain}`, domain };
  }
  const check = project.domain_check?.domain === domain ? project.domain_check : null;
  if (check) return { kind: 'pending', live: project.preview_url, domain, check };
  return { kind: 'unverified', live: project.preview_url, domain };
}

/** Where the site answers now: the verified custom domain, else the preview address. */
export function liveAddress(project: AddressFields): string {
  return domainStatus(project).live;
}

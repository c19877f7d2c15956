import type { Project } from '@/lib/types';

/** Where the site will be served: the custom domain when set, else the preview address. */
export function siteAddress(project: Pick<Project, 'domain' | 'preview_url'>): string {
  return project.domain ? `https://${project.domain}` : project.preview_url;
}

/**
 * A project's site identity and theme (issue 41's contract): read by the identity screen, and by
 * the editor for its colour chips and the "from the site identity" placeholders, hence shared.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const SOCIAL_NETWORKS = ['instagram', 'facebook', 'tiktok', 'youtube', 'linkedin', 'x'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** `GET /api/projects/{id}/identity`: every key present, "" when unset. */
export interface SiteIdentity {
  name: string;
  description: string;
  logo: string;
  whatsapp: string;
  phone: string;
  email: string;
  address: string;
  hours: string;
  social: Record<SocialNetwork, string>;
}

export const THEME_COLORS = ['primary', 'accent', 'background', 'text'] as const;
export type ThemeColor = (typeof THEME_COLORS)[number];

export interface SiteTheme {
  primary: string;
  accent: string;
  background: string;
  text: string;
  headingFont: string;
  bodyFont: string;
}

/** `low_contrast_text`, `low_contrast_primary`, `low_contrast_accent`. */
export type ThemeWarning = `low_contrast_${'text' | 'primary' | 'accent'}`;

/** The theme routes' answer: the theme, its WCAG contrast ratios and the failing pairs. */
export interface ThemeAnswer {
  theme: SiteTheme;
  contrast: { text: number; primary: number; accent: number };
  warnings: ThemeWarning[];
  /** The platform's theme, answered while the project has none of its own. */
  default?: boolean;
}

export function getIdentity(projectId: number): Promise<SiteIdentity> {
  return apiJson<SiteIdentity>(`/api/projects/${projectId}/identity`);
}

export function identityQueryOptions(projectId: number) {
  return queryOptions({
    queryKey: queryKeys.identity(projectId),
    queryFn: () => getIdentity(projectId),
    enabled: Number.isInteger(projectId) && projectId > 0,
  });
}

export function useIdentity(projectId: number) {
  return useQuery(identityQueryOptions(projectId));
}

export function getTheme(projectId: number): Promise<ThemeAnswer> {
  return apiJson<ThemeAnswer>(`/api/projects/${projectId}/theme`);
}

export function themeQueryOptions(projectId: number) {
  return queryOptions({
    queryKey: queryKeys.theme(projectId),
    queryFn: () => getTheme(projectId),
    enabled: Number.isInteger(projectId) && projectId > 0,
  });
}

export function useTheme(projectId: number) {
  return useQuery(themeQueryOptions(projectId));
}

/**
 * Saves the identity (`PUT`); the answer is the identity as stored. The project's queries are
 * refreshed too: its name shows in the header and the editor's canvas renders with it.
 */
export function useUpdateIdentity(projectId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (identity: SiteIdentity) =>
      apiJson<SiteIdentity>(`/api/projects/${projectId}/identity`, { method: 'PUT', body: identity }),
    onSuccess: (saved) => client.setQueryData(queryKeys.identity(projectId), saved),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.project(projectId) }),
  });
}

/** Saves the theme (`PUT`); the answer carries the contrast figures and warnings of what was stored. */
export function useUpdateTheme(projectId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (theme: SiteTheme) =>
      apiJson<ThemeAnswer>(`/api/projects/${projectId}/theme`, { method: 'PUT', body: theme }),
    onSuccess: (saved) => client.setQueryData(queryKeys.theme(projectId), saved),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.project(projectId) }),
  });
}

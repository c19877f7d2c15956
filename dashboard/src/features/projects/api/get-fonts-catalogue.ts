import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CatalogueFont } from '@/features/projects/lib/fonts';

/**
 * The Google Fonts family list shipped with the app (no outside fonts service is called).
 * Loaded as a separate chunk only when the settings form opens.
 */
export async function getFontsCatalogue(): Promise<CatalogueFont[]> {
  const module = await import('@/features/projects/fonts-catalogue.json');
  return module.default;
}

export const fontsCatalogueQueryOptions = queryOptions({
  queryKey: ['fonts-catalogue'],
  queryFn: getFontsCatalogue,
  staleTime: Infinity,
});

export function useFontsCatalogue() {
  return useQuery(fontsCatalogueQueryOptions);
}

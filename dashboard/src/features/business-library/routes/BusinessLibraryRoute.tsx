import { BusinessLibraryScreen } from '@/features/business-library/components/BusinessLibraryScreen';

/** /business/blocks: business admins only (RequireBusinessAdmin), loaded lazily by the router. */
export function BusinessLibraryRoute() {
  return <BusinessLibraryScreen />;
}

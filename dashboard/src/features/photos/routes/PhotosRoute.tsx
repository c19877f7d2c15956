import { PhotosScreen } from '@/features/photos/components/PhotosScreen';

/** /erp/photos: admin only (RequireAdmin), loaded lazily by the router. */
export function PhotosRoute() {
  return <PhotosScreen />;
}

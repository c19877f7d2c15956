import { BusinessUsersScreen } from '@/features/business-users/components/BusinessUsersScreen';

/** /users: business admins only (RequireBusinessAdmin), loaded lazily by the router. */
export function BusinessUsersRoute() {
  return <BusinessUsersScreen />;
}

import { UserAdminScreen } from '@/features/user-admin/components/UserAdminScreen';

/** /erp/users: admin only (RequireAdmin), loaded lazily by the router. */
export function UserAdminRoute() {
  return <UserAdminScreen />;
}

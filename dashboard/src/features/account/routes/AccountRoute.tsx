import { AccountScreen } from '@/features/account/components/AccountScreen';

/** /user: the signed-in user's own account (RequireAuth). */
export function AccountRoute() {
  return <AccountScreen />;
}

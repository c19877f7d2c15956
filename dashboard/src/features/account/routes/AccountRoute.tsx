import { AccountScreen } from '../components/AccountScreen';

/** /user: the signed-in user's own account (RequireAuth). */
export function AccountRoute() {
  return <AccountScreen />;
}

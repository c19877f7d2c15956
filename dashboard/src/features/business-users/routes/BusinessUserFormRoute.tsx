import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { PageLoader } from '@/components/PageLoader';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useNumberParam } from '@/lib/project-route';
import { useBusinessUser } from '@/features/business-users/api/get-business-user';
import { BusinessUserForm } from '@/features/business-users/components/BusinessUserForm';

/** /users/new. */
export function BusinessUserNewRoute() {
  return <BusinessUserForm />;
}

/** /users/{id}; a user that can't be loaded toasts why and returns to /users (spec §8). */
export function BusinessUserEditRoute() {
  const id = useNumberParam('userId');
  const user = useBusinessUser(id);
  const navigate = useNavigate();
  const failed = user.isError || !Number.isInteger(id);
  const left = useRef(false);
  useEffect(() => {
    if (failed && !left.current) {
      left.current = true;
      if (user.error) toast.error(errorMessage(user.error));
      void navigate(paths.users.build(), { replace: true });
    }
  }, [failed, user.error, navigate]);
  if (!user.data) return failed ? null : <PageLoader />;
  // Keyed by id so switching users starts the form afresh.
  return <BusinessUserForm key={user.data.id} user={user.data} />;
}

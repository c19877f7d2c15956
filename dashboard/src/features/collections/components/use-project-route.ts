import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';

export { useNumberParam, useProjectOrLeave } from '@/lib/project-route';

/** Toasts a load failure once and goes to `to` (a record or collection that can't be opened). */
export function useLeaveOnError(error: Error | null, to: string) {
  const navigate = useNavigate();
  const reported = useRef(false);
  useEffect(() => {
    if (error && !reported.current) {
      reported.current = true;
      toast.error(errorMessage(error));
      void navigate(to, { replace: true });
    }
  }, [error, navigate, to]);
}

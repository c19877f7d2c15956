/** One row of GET /api/users (administrator's users screen), from the API's document. */
export type { AdminUserRow } from '@/lib/types';

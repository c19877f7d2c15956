/** One row of GET /api/users (administrator's users screen). */
export interface AdminUserRow {
  id: number;
  created_at: string;
  name: string;
  email: string;
}

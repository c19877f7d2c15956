/** GET /api/edges: every edge node as its heartbeats left it, with the server's clock (the API's document). */
export type { EdgeHistoryPoint, EdgeNode, EdgeOverview, EdgeRecentError } from '@/lib/types';

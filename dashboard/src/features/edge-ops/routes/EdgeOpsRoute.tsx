import { EdgeOpsScreen } from '@/features/edge-ops/components/EdgeOpsScreen';

/** /erp/edges: admin only (RequireAdmin), loaded lazily by the router with its chart. */
export function EdgeOpsRoute() {
  return <EdgeOpsScreen />;
}

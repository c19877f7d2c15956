import { BlockAdminScreen } from '@/features/block-admin/components/BlockAdminScreen';

/** /erp/blocks: admin only (RequireAdmin), loaded lazily by the router. */
export function BlockAdminRoute() {
  return <BlockAdminScreen />;
}

// Right of access (GET /api/privacy/access): the caller's newest usable "everything" zip export, or a new one.
import type { DataExportService } from '../data-export/data-export.service';
import { downloadPath } from '../data-export/data-export.service';

export function createPrivacyAccess({ exports }: { exports: Pick<DataExportService, 'list' | 'request'> }) {
  return {
    async link(userId: string) {
      const now = Date.now();
      const usable = (await exports.list(userId)).find(
        (e) => e.format === 'zip' && e.export_type === 'all' && (e.status === 'pending' || e.status === 'processing' || (e.status === 'completed' && e.file_url !== null && (!e.expires_at || Date.parse(e.expires_at) > now))),
      );
      const view = usable ?? (await exports.request(userId, 'all', 'zip'));
      const message =
        view.status === 'completed'
          ? 'Your data is ready to download.'
          : 'Your data is being gathered; the download link answers 202 until the file is ready, then streams it.';
      return { success: true as const, message, downloadUrl: downloadPath(view.id), exportId: view.id, status: view.status };
    },
  };
}

export type PrivacyAccess = ReturnType<typeof createPrivacyAccess>;

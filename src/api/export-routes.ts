/**
 * Export routes: the same files `mcpulse-devtools export` writes, as downloads for the UI.
 *
 * `GET /api/export?format=jsonl|csv|md` with the shared filters (`project`, `from`, `to`,
 * `tool`, `client`, `session`).
 */
import { exportFilename, EXPORT_FORMATS, exportBody, type ExportFormat } from './export-files.js';
import { ApiError, RawResponse, type RouteMap } from './types.js';

export const exportRoutes = {
  'GET /api/export': ({ store, filter, query }) => {
    const format = (query.get('format') ?? 'jsonl') as ExportFormat;
    if (!EXPORT_FORMATS.includes(format)) {
      throw new ApiError(
        400,
        `format: expected ${EXPORT_FORMATS.join(', ')}, received '${format}'`,
      );
    }
    const { contentType, body } = exportBody(store, filter, format);
    return new RawResponse(contentType, body, exportFilename(filter, format, new Date()));
  },
} satisfies RouteMap;

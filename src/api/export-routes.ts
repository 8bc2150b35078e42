/**
 * Export routes: the same files `mcpulse-devtools export` writes, as downloads for the UI.
 *
 * `GET /api/export?format=jsonl|csv|md` with the shared filters (`project`, `from`, `to`,
 * `tool`, `client`, `session`); `content=true` adds the proxy's content to a jsonl export.
 */
import { exportFilename, EXPORT_FORMATS, exportBody, type ExportFormat } from './export-files.js';
import { bool } from './params.js';
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
    const content = bool(query, 'content') ?? false;
    if (content && format !== 'jsonl')
      throw new ApiError(400, `content: only a jsonl export carries content, not ${format}`);
    const { contentType, body } = exportBody(store, filter, format, undefined, { content });
    return new RawResponse(contentType, body, exportFilename(filter, format, new Date()));
  },
} satisfies RouteMap;

/** The filters most tools share, worded for the model (the dashboard API's own filters). */
import { z } from 'zod';

/** Project, time range and client: the API's scope filters. */
export const scope = {
  project: z
    .string()
    .optional()
    .describe(
      "Project: its ref (12 hex of the key's SHA-256, from /api/projects), the key, or a key prefix only one project has",
    ),
  from: z.string().optional().describe('Only calls that started at or after this ISO 8601 time'),
  to: z.string().optional().describe('Only calls that started before this ISO 8601 time'),
  client: z.string().optional().describe('Only this MCP client (clientInfo.name)'),
};

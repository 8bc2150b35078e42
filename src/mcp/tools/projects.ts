/** `list_projects`: the projects, and the ref that selects one in every other tool. */
import { callApi } from '../../api/call.js';
import { defineTool } from '../tool.js';

/** The projects (one per ingest key) with their calls and sessions. */
export const listProjects = defineTool({
  name: 'list_projects',
  description:
    "The projects (one per ingest key) with their calls and sessions. Select one by its ref (12 hex of the key's SHA-256) in every other tool's project argument; the key prefix is only a label, and warnings name prefixes that several keys share.",
  inputSchema: {},
  run: (_a, stores) => callApi(stores(), 'projects'),
});

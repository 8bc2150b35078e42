/**
 * One MCP tool over the telemetry, declared apart from the server that hosts it: its name,
 * description and input schema, and `run`, which answers plain data from the dashboard API.
 * {@link runTool} turns that answer, or the API or database error, into the tool result the
 * model reads — so a definition never formats and the server never knows a tool's logic.
 */
import type {
  ShapeOutput,
  ZodRawShapeCompat,
} from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { ApiError } from '../api/call.js';
import type { ReadStore } from '../store/index.js';
import { asError, asText } from './views.js';

/** Opens the database on demand; throws an Error whose message the model can be shown. */
export type StoreProvider = () => ReadStore;

/** A tool: what the model sees of it, and how it answers. */
export interface DataTool<S extends ZodRawShapeCompat, A> {
  name: string;
  description: string;
  inputSchema: S;
  /**
   * The answer as plain data. `stores` opens the database (per call: the file may appear
   * later); tools that need no data leave it unopened. Throws {@link ApiError} or an Error whose
   * message the model is shown.
   */
  run(args: ShapeOutput<S>, stores: StoreProvider): Promise<A>;
}

/** Declares a tool, keeping its argument and answer types. */
export const defineTool = <S extends ZodRawShapeCompat, A>(tool: DataTool<S, A>): DataTool<S, A> =>
  tool;

/** What a tool call gives back to the client. */
export type ToolResult = ReturnType<typeof asText> | ReturnType<typeof asError>;

/** Runs `tool`, turning API and database errors into tool errors. */
export async function runTool<S extends ZodRawShapeCompat, A>(
  tool: DataTool<S, A>,
  args: ShapeOutput<S>,
  stores: StoreProvider,
): Promise<ToolResult> {
  try {
    return asText(await tool.run(args, stores));
  } catch (error) {
    if (error instanceof ApiError) return asError(error.message);
    return asError(error instanceof Error ? error.message : String(error));
  }
}

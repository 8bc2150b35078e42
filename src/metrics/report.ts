/**
 * Pure builders for every metrics response: the store hands over rows, these fold them into
 * the shapes of docs/api.md "Metrics routes". Browser-safe. One module per subject under
 * `report/`; this file is the one import path for the server, the MCP views and the renderer.
 */
export type { LatencySummary, Percentiles } from './report/latency-summary.js';
export {
  buildToolSummaries,
  insightsOf,
  registeredByName,
  type ToolBadge,
  type ToolSummary,
} from './report/tool-summaries.js';
export { buildSummary, costOf, type CostSummary, type Summary } from './report/summary.js';
export {
  callView,
  chainViews,
  reasonOf,
  sessionCallViews,
  type CallView,
  type ChainView,
  type FactCall,
} from './report/call-views.js';
export {
  latencyOfCalls,
  statRowsOf,
  toolBreakdown,
  type ToolBreakdown,
} from './report/call-sets.js';
export { logHistogramOfCounts, sizeHistogramOf, valueHistogram } from './report/histograms.js';
export type { Insight } from './insights.js';
export type { SizeBucketCount } from './sizes.js';
export type { Stats } from './aggregate.js';

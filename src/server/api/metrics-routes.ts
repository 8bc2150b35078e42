import type { RouteMap } from './types.js';

/** Metrics routes (`/api/summary`, sessions, tools, chains, …): owned by the metrics work. */
export const metricsRoutes: RouteMap = {};

import type { RouteMap } from './types.js';

/** Export routes: filled in by the export work. */
export const exportRoutes: RouteMap = {};

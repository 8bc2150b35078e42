import type { RouteMap } from './types.js';

/** Admin routes: filled in by the admin work. */
export const adminRoutes: RouteMap = {};

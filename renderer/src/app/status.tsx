/**
 * The listener's status, shared by the shell and every page: it tells whether anything has
 * arrived yet (until then every page points to Setup).
 */
import { createContext, useContext, type ReactNode } from 'react';
import { corePaths } from '../api/core';
import type { Project, ProjectPrefixWarning, Status } from '../api/types';
import { useSpool } from '../api/live';
import { useApi } from '../hooks/useApi';

interface AppData {
  status: Status | undefined;
  statusError: string | undefined;
  projects: Project[];
  /** Key prefixes shared by several projects (each is still its own project). */
  projectWarnings: ProjectPrefixWarning[];
  /**
   * True once any payload (even a rejected one) has been received — stored, or acknowledged and
   * still spooled; undefined while loading.
   */
  hasData: boolean | undefined;
}

const Ctx = createContext<AppData>({
  status: undefined,
  statusError: undefined,
  projects: [],
  projectWarnings: [],
  hasData: undefined,
});

export function AppDataProvider({ children }: { children: ReactNode }) {
  const status = useApi(corePaths.status);
  const projects = useApi(corePaths.projects);
  const spool = useSpool() ?? status.data?.spool;
  const counts = status.data?.counts;
  const spooled = (spool?.pendingRequests ?? 0) > 0;
  const value: AppData = {
    status: status.data,
    statusError: status.error,
    projects: projects.data?.projects ?? [],
    projectWarnings: projects.data?.warnings ?? [],
    hasData: counts ? counts.batches + counts.calls + counts.startups > 0 || spooled : undefined,
  };
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export const useAppData = (): AppData => useContext(Ctx);

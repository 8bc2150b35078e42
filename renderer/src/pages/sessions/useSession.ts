/** Loads one session (its calls arrive in session order, each with its facts and reason). */
import type { Filters } from '../../app/filters';
import { metricsPaths } from '../../api/metrics';
import type { SessionDetail } from '../../api/types';
import { useApi } from '../../hooks/useApi';
import type { Resource } from '../../hooks/useResource';

export function useSession(filters: Filters, id: string | null): Resource<SessionDetail> {
  return useApi(id ? metricsPaths.session(filters, id) : null);
}

/** The hook pages fetch with: an operation's URL kept fresh, typed from the server's handler map. */
import type { ApiName } from '../../../src/shared/api-routes';
import { getApi, type ApiPath } from '../api/api';
import type { Api } from '../api/types';
import { useResource, type Resource } from './useResource';

/** Keeps a view's data for operation `K` fresh (see useResource). */
export function useApi<K extends ApiName>(
  path: ApiPath<K> | null,
  options?: { live?: boolean },
): Resource<Api[K]> {
  return useResource(path, (p) => getApi(p), options);
}

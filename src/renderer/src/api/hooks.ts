// react-query over the handler map: query keys are [handler name, args], so an event can invalidate
// every query of a domain by the name's prefix.
import { useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import type { HandlerInput, HandlerName, HandlerResult } from '../../../shared/ipc';
import { request, type CallError } from './transport';

export function useCall<K extends HandlerName>(
  name: K,
  args: HandlerInput<K>,
  options: Omit<UseQueryOptions<HandlerResult<K>, CallError>, 'queryKey' | 'queryFn'> = {},
) {
  return useQuery<HandlerResult<K>, CallError>({
    queryKey: [name, args],
    queryFn: () => request(name, args),
    ...options,
  });
}

/** A mutation that refreshes the named domains ('accounts', 'reports'…) when it succeeds. */
export function useCallMutation<K extends HandlerName>(name: K, refresh: string[] = []) {
  const client = useQueryClient();
  return useMutation<HandlerResult<K>, CallError, HandlerInput<K>>({
    mutationFn: (args) => request(name, args),
    onSuccess: () => invalidateDomains(client, refresh),
  });
}

export function invalidateDomains(
  client: ReturnType<typeof useQueryClient>,
  domains: string[],
): Promise<void> {
  return client.invalidateQueries({
    predicate: (query) => {
      const key = query.queryKey[0];
      return typeof key === 'string' && domains.some((d) => key.startsWith(`${d}.`));
    },
  });
}

// A change of one customer (PATCH, PUT limits, DELETE that archives): the answer is the customer
// as it now is, so it replaces the page's copy at once; lists and statistics are asked again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CustomerDetail } from '../../api/records.js';
import { key } from '../../app/query-keys.js';
import { customerKey, customersKey } from './customer-keys.js';

export function useRefreshCustomerViews(apiId: string, customerId: string) {
  const queryClient = useQueryClient();
  return (detail?: CustomerDetail) => {
    if (detail) queryClient.setQueryData(customerKey(apiId, customerId), detail);
    else void queryClient.invalidateQueries({ queryKey: customerKey(apiId, customerId) });
    void queryClient.invalidateQueries({ queryKey: customersKey(apiId) });
    void queryClient.invalidateQueries({ queryKey: key('/api/apis/{api}/stats', apiId) });
  };
}

export function useCustomerChange<V>(apiId: string, customerId: string, change: (value: V) => Promise<CustomerDetail>) {
  const refresh = useRefreshCustomerViews(apiId, customerId);
  return useMutation({ mutationFn: change, onSuccess: (detail) => refresh(detail) });
}

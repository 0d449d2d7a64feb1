import { basisPointsToPercent, percentToBasisPoints, type RouteData, type RouteName } from '@kamai/contract';
import { useQuery } from '@tanstack/react-query';
import { apiCall, apiRequest } from '../../../lib/api';
import { useAction } from '../../../lib/use-action';
import { saidProposed, useChangesRefresh } from '../../control';

/** One group of settings: how it is read, how it is saved, and the route whose roles may save it. */
export interface SettingsGroup<V> {
  key: string;
  load: () => Promise<V>;
  save: (values: V) => Promise<{ message: string }>;
  setRoute: RouteName;
}

export const withdrawalLimits: SettingsGroup<RouteData<'adminSettingsGet'>['withdrawal']> = {
  key: 'withdrawal',
  load: async () => (await apiCall('adminSettingsGet')).withdrawal,
  save: async (withdrawal) => saidProposed(await apiRequest('adminSettingsSet', { body: { withdrawal } })),
  setRoute: 'adminSettingsSet',
};

export const riskSettings: SettingsGroup<RouteData<'adminSettingsGet'>['risk']> = {
  key: 'risk',
  load: async () => (await apiCall('adminSettingsGet')).risk,
  save: async (risk) => saidProposed(await apiRequest('adminSettingsSet', { body: { risk } })),
  setRoute: 'adminSettingsSet',
};

export const accountChecks: SettingsGroup<RouteData<'adminSettingsGet'>['accountValidation']> = {
  key: 'accountValidation',
  load: async () => (await apiCall('adminSettingsGet')).accountValidation,
  save: async (accountValidation) =>
    saidProposed(await apiRequest('adminSettingsSet', { body: { accountValidation } })),
  setRoute: 'adminSettingsSet',
};

/** The referral rates as the form shows them: percentages (stored in basis points, converted by the contract). */
export interface RebatePercents {
  level1Percent: number;
  level2Percent: number;
}

export const rebateRates: SettingsGroup<RebatePercents> = {
  key: 'rebate',
  load: async () => {
    const stored = await apiCall('adminRebateGet');
    return {
      level1Percent: basisPointsToPercent(stored.level1Bps),
      level2Percent: basisPointsToPercent(stored.level2Bps),
    };
  },
  save: async (values) =>
    saidProposed(
      await apiRequest('adminRebateSet', {
        body: {
          level1Bps: percentToBasisPoints(values.level1Percent),
          level2Bps: percentToBasisPoints(values.level2Percent),
        },
      }),
    ),
  setRoute: 'adminRebateSet',
};

export const linkedRate: SettingsGroup<RouteData<'adminWsRateGet'>> = {
  key: 'rate',
  load: () => apiCall('adminWsRateGet'),
  save: async (body) => saidProposed(await apiRequest('adminWsRateSet', { body })),
  setRoute: 'adminWsRateSet',
};

export const introPage: SettingsGroup<RouteData<'adminIntroGet'>> = {
  key: 'intro',
  load: () => apiCall('adminIntroGet'),
  save: (body) => apiRequest('adminIntroSet', { body }),
  setRoute: 'adminIntroSet',
};

export function useSettings<V>(group: SettingsGroup<V>) {
  return useQuery({ queryKey: ['settings', group.key], queryFn: group.load });
}

export function useSaveSettings<V>(group: SettingsGroup<V>) {
  // A proposal shows on the pending changes page: its count refreshes too.
  const refresh = useChangesRefresh();
  return useAction(group.save, { invalidate: ['settings', group.key], onSuccess: refresh });
}

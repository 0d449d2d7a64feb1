import { z } from 'zod';
import { accountValidationSettings, accountValidationSettingsChange } from './account-validation';
import { controlChangeRef } from './control';
import { endpoints } from './endpoints';
import { riskSettings, riskSettingsChange } from './fraud';
import { type RouteDef, STAFF } from './route-def';
import { refuseBidi } from './validation';
import { withdrawalLimits, withdrawalLimitsChange } from './withdrawals';

/**
 * The console's settings page: platform settings that belong to no other feature's page, one section
 * per feature that owns it (each section's schema lives with its feature); grouped so others can add theirs.
 */
export const adminSettingsData = z.object({
  withdrawal: withdrawalLimits,
  risk: riskSettings,
  accountValidation: accountValidationSettings,
});

/** Fields left out stay as they are. */
export const adminSettingsSetBody = z.object({
  withdrawal: withdrawalLimitsChange.default({}),
  risk: riskSettingsChange.default({}),
  accountValidation: accountValidationSettingsChange.default({}),
});

export const settingsRoutes = {
  adminSettingsGet: {
    ...endpoints.adminSettingsGet,
    policy: 'admin',
    roles: STAFF,
    summary:
      'Platform settings: withdrawal limits, risk signal weights, four-eyes thresholds, when an invite qualifies and payout account checks',
    tag: 'settings',
    data: adminSettingsData,
  },
  adminSettingsSet: {
    ...endpoints.adminSettingsSet,
    policy: 'admin',
    summary:
      'Changes platform settings (fields left out stay): a change that only tightens applies at once, any other is proposed for a second admin (`change`); audited',
    tag: 'settings',
    body: refuseBidi(adminSettingsSetBody),
    data: adminSettingsData.extend({ change: controlChangeRef.nullable() }),
  },
} as const satisfies Record<string, RouteDef>;

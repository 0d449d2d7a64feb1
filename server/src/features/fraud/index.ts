// The public face of the fraud feature: client records, withdrawal risk, the `risk` settings.
export { recordClient } from './fraud.client';
export { readRiskSettings, riskSettings } from './fraud.settings';
export { RISK_CATALOGUE } from './fraud.signals';

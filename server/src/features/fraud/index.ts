// The public face of the fraud feature: client records, withdrawal risk, the `risk` settings.
export { recordClient } from './fraud.client';
export { deleteClientSignals } from './fraud.queries';
export { readRiskSettings, riskSettings } from './fraud.settings';
export { RISK_CATALOGUE } from './fraud.signals';

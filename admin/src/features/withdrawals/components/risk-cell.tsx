import type { AdminWithdrawalItem, RiskReasonKey } from '@kamai/contract';
import { Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { catalogueText } from '../../../i18n';

/** A risk reason in the catalogue's words (the server's key, translated like its messages). */
export function reasonLabel(key: RiskReasonKey): string {
  return catalogueText(key);
}

export function scoreColor(score: number): string | undefined {
  if (score >= 60) return 'red';
  if (score >= 30) return 'orange';
  if (score > 0) return 'gold';
  return undefined;
}

/** The score as a coloured tag and each reason on its own line. */
export function RiskCell({ risk }: { risk: AdminWithdrawalItem['risk'] }) {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" size={0}>
      <Tag color={scoreColor(risk.score)} aria-label={`${t('withdrawals.risk')} ${risk.score}`}>
        {risk.score}
      </Tag>
      {risk.reasons.length === 0 ? (
        <Typography.Text type="secondary">{t('withdrawals.noSignals')}</Typography.Text>
      ) : (
        risk.reasons.map((key) => (
          <Typography.Text key={key} className="risk-reason">
            {reasonLabel(key)}
          </Typography.Text>
        ))
      )}
    </Space>
  );
}

/** "1 of 2 approvals" while a second, different reviewer is awaited. */
export function ApprovalsTag({ item }: { item: AdminWithdrawalItem }) {
  const { t } = useTranslation();
  if (item.approvals.required < 2 || item.state !== 'pending') return null;
  const count = item.approvals.first ? 1 : 0;
  const tag = <Tag color={count ? 'blue' : undefined}>{t('withdrawals.approvals', { count })}</Tag>;
  return item.approvals.first ? (
    <Tooltip title={t('withdrawals.firstApprovedBy', { id: item.approvals.first.reviewerId })}>{tag}</Tooltip>
  ) : (
    tag
  );
}

import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';

interface GetCodeButtonProps {
  /** Seconds until the server takes another code request for this number. */
  waitSeconds: number;
  loading: boolean;
  /** Without it the button submits its form, which validates the number first. */
  onClick?: () => void;
}

/** "Get code", then "Again in 9 s" for the re-bind countdown (spec section 4: 10 s). */
export function GetCodeButton({ waitSeconds, loading, onClick }: GetCodeButtonProps) {
  const { t } = useTranslation('linked');
  return (
    <Button
      className="send-code-button"
      type={onClick ? 'button' : 'submit'}
      size="small"
      color="primary"
      fill="outline"
      disabled={waitSeconds > 0}
      loading={loading}
      onClick={onClick}
    >
      {waitSeconds > 0 ? t('code.again', { seconds: waitSeconds }) : t('code.get')}
    </Button>
  );
}

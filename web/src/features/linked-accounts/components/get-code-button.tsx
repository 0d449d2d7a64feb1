import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';

interface GetCodeButtonProps {
  /** Seconds until the server takes another code request for this number. */
  waitSeconds: number;
  loading: boolean;
  /** Without it the button submits its form, which validates the number first. */
  onClick?: () => void;
}

/**
 * "Get code", then "Again in 9 s" for the re-bind countdown (spec section 4: 10 s). A whole-width
 * button under the number, not beside it: beside it, "Messaging number" and the typed number were cut
 * on 320-360 px phones, the more so while the countdown's longer text held the room.
 */
export function GetCodeButton({ waitSeconds, loading, onClick }: GetCodeButtonProps) {
  const { t } = useTranslation('linked');
  return (
    <Button
      className="get-code-button"
      type={onClick ? 'button' : 'submit'}
      block
      shape="rounded"
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

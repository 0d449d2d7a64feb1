import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../lib/api';
import { uploadFile } from '../lib/upload';

/** Picks a file, uploads it through `tool/upload` and hands back its URL. */
export function UploadButton({ accept, onUploaded }: { accept: string; onUploaded: (url: string) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  return (
    <Upload
      accept={accept}
      showUploadList={false}
      beforeUpload={(file) => {
        setBusy(true);
        uploadFile(file)
          .then((data) => onUploaded(data.url))
          .catch((error: unknown) => void message.error(messageOf(error)))
          .finally(() => setBusy(false));
        return false;
      }}
    >
      <Button icon={<UploadOutlined />} loading={busy}>
        {t('actions.upload')}
      </Button>
    </Upload>
  );
}

import { Alert, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../../../components/language-select';
import { apiCall, messageOf, setToken } from '../../../lib/api';
import { contractRule } from '../../../lib/rules';

/** The contract's rules, fetched with zod when a field is first checked: the login page paints without them. */
const loginField = (name: 'username' | 'password') =>
  contractRule(() => import('@kamai/contract').then((contract) => contract.loginBody.shape[name]));
const USERNAME_RULES = [loginField('username')];
const PASSWORD_RULES = [loginField('password')];

interface Values {
  username: string;
  password: string;
}

/** Staff log in with their app account; only admins and reviewers are let in. */
export function LoginPage() {
  const { t } = useTranslation();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(values: Values) {
    setBusy(true);
    setError(undefined);
    // The console's chunk, fetched beside the login call, so it is there when the session is.
    void import('../../../app/router');
    try {
      const { token } = await apiCall('login', { body: values });
      const me = await apiCall('userDetail', { token });
      if (me.role === 'user') {
        // Not staff: end the session that was just opened instead of keeping it.
        await apiCall('logout', { token }).catch(() => undefined);
        setError(t('login.notStaff'));
        return;
      }
      setToken(token);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="login">
      {/* Styled as antd's Card (styles.css) without its tabs and loading skeleton, which the login never shows. */}
      <section className="login-card">
        <div className="login-head">
          <Typography.Title level={1} className="login-title">
            {t('login.title')}
          </Typography.Title>
          <LanguageSelect />
        </div>
        <Typography.Paragraph type="secondary" className="space-top">
          {t('login.intro')}
        </Typography.Paragraph>
        {error && <Alert type="error" title={error} showIcon className="toolbar" role="alert" />}
        <Form<Values> layout="vertical" onFinish={(values) => void submit(values)} requiredMark={false}>
          <Form.Item label={t('login.username')} name="username" rules={USERNAME_RULES}>
            <Input autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item label={t('login.password')} name="password" rules={PASSWORD_RULES}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('login.submit')}
          </Button>
        </Form>
      </section>
    </main>
  );
}

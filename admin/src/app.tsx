import { Card, ConfigProvider, Typography } from 'antd';

/** Placeholder until the operator console's own issue: says so plainly and points to the API docs. */
export function App() {
  return (
    <ConfigProvider theme={{ token: { colorPrimary: '#0e7c5a' } }}>
      <main style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 24, background: '#f2f5f4' }}>
        <Card style={{ maxWidth: 520 }}>
          <Typography.Title level={1} style={{ fontSize: 26, marginTop: 0 }}>
            Kamai admin console
          </Typography.Title>
          <Typography.Paragraph>
            The operator console arrives with its own issue; until then the admin API can be used directly.
          </Typography.Paragraph>
          <Typography.Link href="/docs" strong>
            Open the API documentation
          </Typography.Link>
        </Card>
      </main>
    </ConfigProvider>
  );
}

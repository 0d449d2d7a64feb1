import { Typography } from 'antd';

/** A before/after value of an audit entry, pretty-printed. */
export function JsonCell({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <Typography.Text type="secondary">—</Typography.Text>;
  return <pre className="json-cell">{JSON.stringify(value, null, 1)}</pre>;
}

import { Table } from 'antd';
// antd's styles for the Table, fetched with it (app/theme.ts: antd's zero-runtime mode).
import '../antd/table.css';

/** antd's Table as a chunk of its own: a phone shows the lists as cards and never fetches it (data-table.tsx). */
export default Table;

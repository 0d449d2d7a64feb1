import { Table } from 'antd';

/** antd's Table as a chunk of its own: a phone shows the lists as cards and never fetches it (data-table.tsx). */
export default Table;

// The month and weekday names of the date pickers (antd's locale names the dayjs locale).
import 'dayjs/locale/zh-cn';
import zhCNModule from 'antd/locale/zh_CN';
import { esModule } from './base';

export default esModule(zhCNModule);

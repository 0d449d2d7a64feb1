// The month and weekday names of the date pickers (antd's locale names the dayjs locale).
import 'dayjs/locale/hi';
import hiINModule from 'antd/locale/hi_IN';
import { esModule } from './base';

export default esModule(hiINModule);

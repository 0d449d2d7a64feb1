export { downloadMyData } from './lib/download-data';
export { AccountDeletedPage } from './pages/deleted-page';
export { InfoPage } from './pages/info-page';

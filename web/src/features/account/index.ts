export { InfoPage } from './pages/info-page';

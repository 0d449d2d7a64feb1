export { IncomePage } from './pages/income-page';

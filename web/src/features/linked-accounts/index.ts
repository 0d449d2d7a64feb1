export { AddPage } from './pages/add-page';
export { OnlineAccountsPage } from './pages/online-accounts-page';

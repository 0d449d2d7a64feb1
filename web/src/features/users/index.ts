export { useUserDetail } from './api/get-user-detail';
export { BalanceCard } from './components/balance-card';
export { ProfilePage } from './pages/profile-page';

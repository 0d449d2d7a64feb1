export { IntroPage } from './pages/intro-page';

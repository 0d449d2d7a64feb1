export { SurveyPage } from './pages/survey-page';

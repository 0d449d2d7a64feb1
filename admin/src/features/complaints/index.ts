// What the console's shell uses of complaints: the Grievance Officer banner.
export { OfficerBanner } from './components/officer-banner';

// What the console's shell uses of complaints: the open count in the menu and the Grievance Officer banner.
export { ComplaintsCount, OfficerBanner } from './components/officer-banner';

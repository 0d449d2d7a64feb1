// What the console's shell uses of complaints: the Grievance Officer banner.

export { useComplaintSummary } from './api/complaints';
export { OfficerBanner } from './components/officer-banner';

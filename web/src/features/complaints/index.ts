// The public face of the complaints feature in the app (raising a complaint and following its answer).
export { ComplaintsEntry } from './components/complaints-entry';
export { RaiseComplaintLink } from './components/raise-complaint-link';
export { ComplaintNewPage } from './pages/complaint-new-page';
export { ComplaintPage } from './pages/complaint-page';
export { ComplaintsPage } from './pages/complaints-page';

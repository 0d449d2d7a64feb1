// The public face of the complaints feature (grievances: users raise them, operators answer them).
export { complaintFigures } from './complaints.queries';
export { register } from './complaints.routes';

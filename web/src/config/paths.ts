/** Every page address of the app (spec section 2), typed so links cannot drift from the router. */
export const paths = {
  root: '/',
  home: '/index/home',
  add: '/index/add',
  user: '/index/user',
  notices: '/List1',
  income: '/List2',
  invites: '/List3',
  reviews: '/List4',
  onlineAccounts: '/List5',
  payoutMethods: '/List6',
  survey: '/Que1',
  intro: '/Intro1',
  help: '/Help',
  terms: '/Terms',
  privacy: '/Privacy',
  /** The caller's complaints; one of them (`?id=`); raising one (`?kind=&id=` names what it is about). */
  complaints: '/Complaints',
  complaint: '/Complaint',
  complaintNew: '/ComplaintNew',
  /** Where account deletion ends, logged out. */
  accountDeleted: '/Deleted',
} as const;

export type PathName = keyof typeof paths;
export type AppPath = (typeof paths)[PathName];

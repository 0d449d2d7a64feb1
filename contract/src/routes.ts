import { z } from 'zod';
import { accountRoutes } from './account';
import { accountCheckRoutes } from './account-validation';
import { adminRoutes } from './admin';
import { auditRoutes } from './audit';
import {
  editPasswordBody,
  loginBody,
  otpChannelsData,
  otpSendBody,
  otpSendData,
  registerBody,
  resetPassBody,
  tokenData,
  userDetailData,
} from './auth';
import { complaintRoutes } from './complaints';
import { controlRoutes } from './control';
import { creditRoutes } from './credits';
import { endpoints } from './endpoints';
import { linkedAccountRoutes } from './linked-accounts';
import { noticeRoutes } from './notices';
import { otpRoutes, outboxPage } from './otp';
import { pageQuery } from './pagination';
import { payoutAccountRoutes } from './payout-accounts';
import { payoutGatewayRoutes, payoutRoutes } from './payouts';
import { pushRoutes } from './push';
import { queueRoutes } from './queues';
import { referralRoutes } from './referrals';
import { type RouteDef, STAFF } from './route-def';
import { settingsRoutes } from './settings';
import { surveyRoutes } from './survey';
import { taskRoutes } from './tasks';
import { unclaimedRoutes } from './unclaimed';
import { uploadRoutes } from './uploads';
import { balancePage, incomeDailyData, incomeDailyQuery, ledgerCheckData } from './wallet';
import { withdrawalRoutes } from './withdrawals';

const healthData = z.object({ status: z.literal('ok') });

/** Every route of the API. The server registers exactly these; the web client calls through them. */
export const routes = {
  liveness: {
    ...endpoints.liveness,
    policy: 'public',
    summary: 'Liveness: the process answers',
    tag: 'health',
    data: healthData,
  },
  readiness: {
    ...endpoints.readiness,
    policy: 'public',
    summary: 'Readiness: the database answers',
    tag: 'health',
    data: z.object({ status: z.literal('ok'), database: z.literal('up') }),
  },
  otpSend: {
    ...endpoints.otpSend,
    policy: 'public',
    summary: 'Send a 6-digit one-time code to an e-mail address or Indian mobile number',
    tag: 'otp',
    body: otpSendBody,
    data: otpSendData,
    ok: 'code_sent',
  },
  otpChannels: {
    ...endpoints.otpChannels,
    policy: 'public',
    summary: 'The channels sign-up and one-time codes use here (SIGNUP_CHANNELS): sms, email or both',
    tag: 'otp',
    data: otpChannelsData,
  },
  register: {
    ...endpoints.register,
    policy: 'public',
    summary: 'Register with a one-time code and an invite code; answers with a session token',
    tag: 'auth',
    body: registerBody,
    data: tokenData,
    ok: 'registered',
  },
  login: {
    ...endpoints.login,
    policy: 'public',
    summary: 'Log in with username and password',
    tag: 'auth',
    body: loginBody,
    data: tokenData,
    ok: 'logged_in',
  },
  resetPassword: {
    ...endpoints.resetPassword,
    policy: 'public',
    summary: 'Reset the password with a one-time code; revokes every session',
    tag: 'auth',
    body: resetPassBody,
    data: z.null(),
    ok: 'password_reset',
  },
  editPassword: {
    ...endpoints.editPassword,
    policy: 'user',
    summary: "Change the password; revokes the user's other sessions",
    tag: 'auth',
    body: editPasswordBody,
    data: z.null(),
    ok: 'password_changed',
  },
  logout: {
    ...endpoints.logout,
    policy: 'user',
    summary: 'End this session',
    tag: 'auth',
    data: z.null(),
    ok: 'logged_out',
  },
  userDetail: {
    ...endpoints.userDetail,
    policy: 'user',
    summary: 'The logged-in user',
    tag: 'users',
    data: userDetailData,
  },
  adminOtpOutbox: {
    ...endpoints.adminOtpOutbox,
    policy: 'admin',
    summary: 'Codes delivered by the sandbox sender, newest first (keyset pages)',
    tag: 'otp',
    query: pageQuery,
    data: outboxPage,
  },
  balanceList: {
    ...endpoints.balanceList,
    policy: 'user',
    summary: "The caller's wallet movements, newest first (keyset pages)",
    tag: 'wallet',
    query: pageQuery,
    data: balancePage,
  },
  incomeDaily: {
    ...endpoints.incomeDaily,
    policy: 'user',
    summary: "The caller's earnings per day in India over the last 7 or 30 days, by kind, for the income chart",
    tag: 'wallet',
    query: incomeDailyQuery,
    data: incomeDailyData,
  },
  adminLedgerCheck: {
    ...endpoints.adminLedgerCheck,
    policy: 'admin',
    roles: STAFF,
    summary: "Checks the ledger's invariants: postings balance, cached balances match, none negative",
    tag: 'wallet',
    data: ledgerCheckData,
  },
  ...otpRoutes,
  ...taskRoutes,
  ...surveyRoutes,
  ...referralRoutes,
  ...creditRoutes,
  ...linkedAccountRoutes,
  ...noticeRoutes,
  ...uploadRoutes,
  ...adminRoutes,
  ...controlRoutes,
  ...auditRoutes,
  ...payoutAccountRoutes,
  ...accountCheckRoutes,
  ...complaintRoutes,
  ...withdrawalRoutes,
  ...settingsRoutes,
  ...unclaimedRoutes,
  ...payoutRoutes,
  ...accountRoutes,
  ...payoutGatewayRoutes,
  ...pushRoutes,
  ...queueRoutes,
} as const satisfies Record<string, RouteDef>;

export type { Method, Policy, Produces, RouteDef, StaffRole } from './route-def';
export type Routes = typeof routes;
export type RouteName = keyof Routes;
type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;
type Input<T> = T extends z.ZodType ? z.input<T> : undefined;
export type RouteBody<N extends RouteName> = Routes[N] extends { body: infer B } ? Input<B> : undefined;
export type RouteQuery<N extends RouteName> = Routes[N] extends { query: infer Q } ? Input<Q> : undefined;
/** Values of a path's `:name` parts (`/settlement/:phone`). */
export type RouteParams<N extends RouteName> = Routes[N] extends { params: infer P } ? Input<P> : undefined;
export type RouteData<N extends RouteName> = Infer<Routes[N]['data']>;
/** Body, query and params after the schema's transforms (what the server's handler receives). */
export type RouteBodyParsed<N extends RouteName> = Routes[N] extends { body: infer B } ? Infer<B> : undefined;
export type RouteQueryParsed<N extends RouteName> = Routes[N] extends { query: infer Q } ? Infer<Q> : undefined;
export type RouteParamsParsed<N extends RouteName> = Routes[N] extends { params: infer P } ? Infer<P> : undefined;
export type RouteHeadersParsed<N extends RouteName> = Routes[N] extends { headers: infer H } ? Infer<H> : undefined;

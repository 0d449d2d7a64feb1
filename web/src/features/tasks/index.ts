export { useClaimIfClaimable } from './api/claim-if-claimable';
export { HomeSkeleton, HomeWelcome } from './components/home-welcome';
export { TaskSections } from './components/task-sections';

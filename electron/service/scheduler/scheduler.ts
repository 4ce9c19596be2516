// The scheduler moved to jobs/scheduler.ts (the loop lives beside the persisted jobs it runs).
// Kept so imports not yet updated still resolve; import from '../jobs/scheduler' in new code.
export { Scheduler, type Worker } from '../jobs/scheduler';

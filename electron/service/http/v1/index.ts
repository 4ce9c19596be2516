// Version 1's methods, by scope: sends and what follows them (sms.ts), the outbox and inbox reads
// (reads.ts), account/* and utils/getdate (account.ts), verify/lookup (verify.ts).
import { v1Routes } from './routes';
import { smsMethods } from './sms';
import { readMethods } from './reads';
import { accountMethods } from './account';
import { verifyMethods } from './verify';

export const v1ApiRoutes = v1Routes({ ...smsMethods, ...readMethods, ...accountMethods, ...verifyMethods });

// Version 1's verify/lookup (reference/kavenegar-v1.md §1.13): the parameters mapped onto
// core.verify (messaging/verify.ts, where its rules are) and the one recorded message back as the
// provider's message entry, in an array as its Go, .NET, PHP and Java clients index it.
import type { V1Methods } from './routes';
import type { Recorded } from '../../messaging/accept';
import { TEMPLATE_TOKENS, type TemplateToken } from '../../../../shared/verify-templates';
import { messageStatusText } from '../../../../shared/lifecycle';
import type { MessageInfo } from '../../../../shared/api';
import { unixSeconds } from '../../clock';

function messageEntry(recorded: Recorded): MessageInfo {
  return {
    messageid: recorded.firstMessageId,
    message: recorded.texts?.[0] ?? recorded.price.text,
    status: recorded.status,
    statustext: messageStatusText[recorded.status],
    sender: recorded.line.number,
    receptor: recorded.classified.receptors[recorded.classified.valid[0]!]!,
    date: unixSeconds(recorded.createdAt),
    cost: recorded.costs?.[0] ?? recorded.price.costRials,
  };
}

export const verifyMethods: V1Methods = {
  'verify/lookup': {
    handler: async ({ core, account, params }) => {
      const tokens: Partial<Record<TemplateToken, string>> = {};
      for (const name of TEMPLATE_TOKENS) {
        const value = params.string(name);
        if (value !== undefined) tokens[name] = value;
      }
      const recorded = await core.verify.lookupInGroup(account.id, {
        receptors: params.list('receptor') ?? [],
        template: params.required('template'),
        tokens,
        type: params.string('type'),
      });
      return [messageEntry(recorded)];
    },
  },
};
